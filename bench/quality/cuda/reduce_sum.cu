// Block sum reduction in shared memory; one partial sum per block.
#include "prelude.h"

extern "C" __global__ void reduce_sum(const float *in, float *partial, int n) {
  __shared__ float buf[128];
  int t = TID_X;
  int i = CTA_X * 128 + t;
  buf[t] = i < n ? in[i] : 0.0f;
  SYNC();
  for (int s = 64; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    SYNC();
  }
  if (t == 0)
    partial[CTA_X] = buf[0];
}
