// One compare-exchange step of a bitonic sort network.
#include "prelude.h"

static __device__ void swap_if(int *a, int *b, bool up) {
  int x = *a, y = *b;
  if ((x > y) == up) {
    *a = y;
    *b = x;
  }
}

extern "C" __global__ void bitonic_step(int *data, int j, int k) {
  unsigned i = CTA_X * NTID_X + TID_X;
  unsigned p = i ^ (unsigned)(j & 31);
  if (p > i)
    swap_if(&data[i], &data[p], (i & (unsigned)(k & 63)) == 0);
}
