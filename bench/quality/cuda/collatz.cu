// Collatz step counts, capped at 64 steps.
#include "prelude.h"

extern "C" __global__ void collatz(const unsigned *start, int *steps, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n)
    return;
  unsigned x = start[i] | 1u;
  int s = 0;
  while (x != 1u && s < 64) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    ++s;
  }
  steps[i] = s;
}
