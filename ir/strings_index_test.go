package ir

import (
	"strconv"
	"testing"
)

// The lookup index over interned text: strings added unchecked
// (AddUnique, the parser's path) are found by a later Lookup or Intern,
// Intern returns one ID per text through every growth of the table, and
// the empty string is ID 0.
func TestStringsIndex(t *testing.T) {
	var s Strings
	unique := map[string]StrID{}
	for i := range 3000 {
		name := "%r" + strconv.Itoa(i)
		unique[name] = s.AddUnique([]byte(name))
	}
	for name, id := range unique {
		if got, ok := s.Lookup(name); !ok || got != id {
			t.Fatalf("Lookup(%q) = %d, %v; want %d", name, got, ok, id)
		}
	}
	if id, ok := s.Lookup(""); !ok || id != 0 {
		t.Fatalf(`Lookup("") = %d, %v; want 0, true`, id, ok)
	}
	if _, ok := s.Lookup("%nope"); ok {
		t.Fatal("Lookup of text never added found something")
	}
	interned := map[string]StrID{}
	for round := range 3 {
		for i := range 5000 {
			text := "add.s32." + strconv.Itoa(i)
			id := s.Intern(text)
			if round == 0 {
				interned[text] = id
			} else if interned[text] != id {
				t.Fatalf("round %d: Intern(%q) = %d, first %d", round, text, id, interned[text])
			}
			if got := s.Get(id); got != text {
				t.Fatalf("Get(Intern(%q)) = %q", text, got)
			}
		}
	}
	// Interning a text added unchecked returns its ID, not a new one.
	if id := s.InternBytes([]byte("%r17")); id != unique["%r17"] {
		t.Fatalf("InternBytes of an added name = %d, want %d", id, unique["%r17"])
	}
	if n := s.Len(); n != 1+3000+5000 {
		t.Fatalf("Len = %d, want %d", n, 1+3000+5000)
	}
}
