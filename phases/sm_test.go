package phases

import "testing"

// TestSMEncodingTable: every value of the seeds' table is exact, the
// targets it omits keep the order of their numbers, and the seeds'
// generation thresholds fall where the seeds put them.
func TestSMEncodingTable(t *testing.T) {
	for _, tc := range []struct {
		in  string
		enc uint32
	}{
		{"sm_30", 0x3000}, {"sm_50", 0x4001}, {"sm_60", 0x6000}, {"sm_70", 0x7000},
		{"sm_80", 0x7001}, {"sm_90", 0x8000}, {"sm_100", 0x9000},
		{"sm_75", 0x7000}, {"sm_86", 0x7007}, {"sm_89", 0x700a}, {"sm_90a", 0x8000},
		{"sm_100f", 0x9000}, {"sm_120a", 0x9014}, {"sm_20", 0x2000}, {"sm_52", 0x4003},
	} {
		tg, err := ParseTarget(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if tg.Encoding != tc.enc || uint32(tg.Gen)<<12|uint32(tg.Variant) != tg.Encoding {
			t.Errorf("%s: encoding %#x (gen %d variant %d), want %#x", tc.in, tg.Encoding, tg.Gen, tg.Variant, tc.enc)
		}
	}
	prev := uint32(0)
	for v := 20; v <= 121; v++ {
		if v/10 == 4 {
			continue // no sm_4x
		}
		tg, err := ParseTarget("sm_" + itoa(v))
		if err != nil {
			t.Fatal(err)
		}
		if tg.Encoding < prev {
			t.Errorf("sm_%d = %#x is below sm_%d's %#x", v, tg.Encoding, v-1, prev)
		}
		prev = tg.Encoding
		kepMax := v < 60
		if (tg.Encoding <= FoldEligibleBoundary) != kepMax {
			t.Errorf("sm_%d: fold boundary on the wrong side", v)
		}
		if (tg.Encoding <= EbbPrePassBoundary) != (v < 90) {
			t.Errorf("sm_%d: EBB boundary on the wrong side", v)
		}
	}
	for _, tc := range []struct{ in, backend string }{
		{"sm_35", "SM30"}, {"sm_52", "SM50"}, {"sm_61", "SM60"}, {"sm_75", "SM70"},
		{"sm_86", "SM80"}, {"sm_89", "SM89"}, {"sm_90a", "SM90"}, {"sm_120", "SM90"},
	} {
		if tg, _ := ParseTarget(tc.in); tg.Backend() != tc.backend {
			t.Errorf("%s: backend %s, want %s", tc.in, tg.Backend(), tc.backend)
		}
	}
}

func itoa(v int) string {
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}
