package sim_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir/ptx"
	"github.com/ptxopt/ptxopt/sim"
)

// The LLVM cross-check: every sim/testdata/llvm/*.ll file defines
//
//	define void @body(i32 %tid, i8* %in, i8* %out)
//
// which computes into out[tid*llvmSlot, (tid+1)*llvmSlot) from the
// 4 KiB input buffer. The test compiles it for nvptx64 with llc (wrapped
// in a kernel that derives tid from %ctaid, %ntid and %tid) and runs the
// PTX in sim; it runs the same IR on the host with lli (wrapped in a main
// that loops over tid and writes the output buffer to stdout) and
// compares the two buffers byte for byte.
//
// Input layout (see llvmInput): words [0,256) are integers (small,
// random, edge values), words [256,512) finite float32 values, bytes
// [2048,4096) finite float64 values.
const (
	llvmThreads = 64
	llvmBlock   = 32
	llvmSlot    = 64 // output bytes per thread
	llvmInBytes = 4096
)

const nvptxHeader = `target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
`

const nvptxWrapper = `
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @kern(i8* %in, i8* %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %cn = mul i32 %c, %n
  %g = add i32 %cn, %t
  call void @body(i32 %g, i8* %in, i8* %out)
  ret void
}

!nvvm.annotations = !{!900}
!900 = !{void (i8*, i8*)* @kern, !"kernel", i32 1}
`

func hostWrapper(in []byte) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n@inbuf = global [%d x i8] c\"", len(in))
	for _, b := range in {
		fmt.Fprintf(&sb, "\\%02X", b)
	}
	fmt.Fprintf(&sb, "\", align 16\n@outbuf = global [%d x i8] zeroinitializer, align 16\n", llvmThreads*llvmSlot)
	fmt.Fprintf(&sb, `
declare i64 @write(i32, i8*, i64)

define i32 @main() {
entry:
  %%in = getelementptr [%[1]d x i8], [%[1]d x i8]* @inbuf, i32 0, i32 0
  %%out = getelementptr [%[2]d x i8], [%[2]d x i8]* @outbuf, i32 0, i32 0
  br label %%loop
loop:
  %%t = phi i32 [ 0, %%entry ], [ %%t1, %%loop ]
  call void @body(i32 %%t, i8* %%in, i8* %%out)
  %%t1 = add i32 %%t, 1
  %%done = icmp eq i32 %%t1, %[3]d
  br i1 %%done, label %%exit, label %%loop
exit:
  %%w = call i64 @write(i32 1, i8* %%out, i64 %[2]d)
  ret i32 0
}
`, len(in), llvmThreads*llvmSlot, llvmThreads)
	return sb.String()
}

// llvmInput is the deterministic input buffer.
func llvmInput() []byte {
	r := rand.New(rand.NewSource(7))
	buf := make([]byte, llvmInBytes)
	edge := []uint32{0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 2, 31, 32, 33, 255, 256, 0xffff, 0x10000}
	for i := 0; i < 256; i++ {
		var v uint32
		switch r.Intn(4) {
		case 0:
			v = uint32(int32(r.Intn(201) - 100))
		case 1:
			v = r.Uint32()
		case 2:
			v = edge[r.Intn(len(edge))]
		default:
			v = uint32(r.Intn(1 << 16))
		}
		binary.LittleEndian.PutUint32(buf[4*i:], v)
	}
	for i := 256; i < 512; i++ {
		f := float32(r.NormFloat64() * 50)
		switch r.Intn(5) {
		case 0:
			f = float32(r.Intn(41)-20) / 2 // exact halves: rounding ties
		case 1:
			f = float32(r.Intn(1000))
		}
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(f))
	}
	for i := 2048; i < llvmInBytes; i += 8 {
		d := r.NormFloat64() * 1000
		if r.Intn(5) == 0 {
			d = float64(r.Intn(41)-20) / 2
		}
		binary.LittleEndian.PutUint64(buf[i:], math.Float64bits(d))
	}
	return buf
}

func TestLLVMCrossCheck(t *testing.T) {
	llc, err1 := lookTool("llc")
	lli, err2 := lookTool("lli")
	if err1 != nil || err2 != nil {
		testenv.Missing(t, "llc or lli not found (install llvm-14; see .ci/steps/llvm.sh); skipping the LLVM cross-check")
	}
	files, _ := filepath.Glob("testdata/llvm/*.ll")
	sort.Strings(files)
	if len(files) < 30 {
		t.Fatalf("only %d LLVM kernels in testdata/llvm", len(files))
	}
	in := llvmInput()
	host := hostWrapper(in)
	dir := t.TempDir()
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".ll")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			// device: llc to PTX, run in sim
			dev := filepath.Join(dir, name+".nvptx.ll")
			ptxFile := filepath.Join(dir, name+".ptx")
			if err := os.WriteFile(dev, []byte(nvptxHeader+string(body)+nvptxWrapper), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(llc, "-march=nvptx64", "-mcpu=sm_70", "-O2", dev, "-o", ptxFile).CombinedOutput(); err != nil {
				t.Fatalf("llc: %v\n%s", err, out)
			}
			got, err := runLLVMPTX(ptxFile, in)
			if err != nil {
				t.Fatal(err)
			}
			// host: lli
			hf := filepath.Join(dir, name+".host.ll")
			if err := os.WriteFile(hf, []byte(string(body)+host), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(lli, hf)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("lli: %v\n%s", err, stderr.String())
			}
			want := stdout.Bytes()
			if bytes.Count(want, []byte{0}) == len(want) {
				t.Fatal("host output is all zero")
			}
			if len(want) != len(got) {
				t.Fatalf("host wrote %d bytes, sim output has %d", len(want), len(got))
			}
			for k := range want {
				if want[k] != got[k] {
					tid, off := k/llvmSlot, k%llvmSlot
					w := off &^ 3
					t.Fatalf("thread %d, output byte %d: host %#02x, sim %#02x (word host %#08x sim %#08x); PTX in %s",
						tid, off, want[k], got[k], binary.LittleEndian.Uint32(want[tid*llvmSlot+w:]), binary.LittleEndian.Uint32(got[tid*llvmSlot+w:]), ptxFile)
				}
			}
		})
	}
}

// runLLVMPTX runs the kernel "kern" of a PTX file on the input and
// returns the output buffer.
func runLLVMPTX(path string, in []byte) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := ptx.Parse(path, src)
	if err != nil {
		return nil, fmt.Errorf("parse: %v", err)
	}
	for _, f := range m.Funcs {
		if f.Name != "kern" {
			continue
		}
		p, err := sim.Compile(f)
		if err != nil {
			return nil, err
		}
		mem := sim.NewMemory()
		ia := mem.AllocBytes(append([]byte(nil), in...))
		oa := mem.Alloc(llvmThreads * llvmSlot)
		l := sim.Launch{Grid: sim.Dim3{X: llvmThreads / llvmBlock, Y: 1, Z: 1}, Block: sim.Dim3{X: llvmBlock, Y: 1, Z: 1}}
		l.Params = [][]byte{binary.LittleEndian.AppendUint64(nil, ia), binary.LittleEndian.AppendUint64(nil, oa)}
		l.MaxSteps = 5_000_000
		if _, err := p.Run(&l, mem); err != nil {
			return nil, err
		}
		return mem.Bytes(oa), nil
	}
	return nil, fmt.Errorf("no kernel kern in %s", path)
}

// lookTool finds an LLVM tool by its plain or its LLVM 14 name.
func lookTool(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		return p, nil
	}
	if p, err2 := exec.LookPath(name + "-14"); err2 == nil {
		return p, nil
	}
	return "", err
}
