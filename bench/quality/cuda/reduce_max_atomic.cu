// Maximum of an integer array: per-thread scan, then one atomic per thread.
#include "prelude.h"

extern "C" __global__ void reduce_max_atomic(const int *in, int *result, int n) {
  int best = -2147483647 - 1;
  int stride = NTID_X * NCTA_X;
  for (int i = CTA_X * NTID_X + TID_X; i < (n & 4095); i += stride) {
    int v = in[i];
    if (v > best)
      best = v;
  }
  atomic_max_i32(result, best);
}
