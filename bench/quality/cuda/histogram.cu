// 16-bin histogram: privatized in shared memory, merged with atomics.
#include "prelude.h"

extern "C" __global__ void histogram(const unsigned *data, int *bins, int n) {
  __shared__ int local[16];
  int t = TID_X;
  if (t < 16)
    local[t] = 0;
  SYNC();
  int i = CTA_X * NTID_X + t;
  if (i < n) {
    unsigned v = data[i];
    atomic_add_i32(&local[(v >> 4) & 15], 1);
  }
  SYNC();
  if (t < 16)
    atomic_add_i32(&bins[t], local[t]);
}
