//go:build ptxopt_faults

package ptxopt

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// InjectedFault is the fault hook of builds with the ptxopt_faults tag,
// for this package's steps and the command's (which calls it for its
// own). PTXOPT_FAULT holds comma-separated items "step:name" (panic at
// step on every input whose path contains name; an empty name hits every
// input) or "step:name:hang" (never return from it).
func InjectedFault(step, path string) {
	for _, item := range strings.Split(os.Getenv("PTXOPT_FAULT"), ",") {
		parts := strings.SplitN(item, ":", 3)
		if len(parts) < 2 || parts[0] != step || !strings.Contains(path, parts[1]) {
			continue
		}
		if len(parts) == 3 && parts[2] == "hang" {
			for {
				time.Sleep(time.Hour) // a timer, so the runtime sees no deadlock
			}
		}
		panic(fmt.Sprintf("injected fault at %s of %s", step, path))
	}
}

func init() { faultHook = InjectedFault }
