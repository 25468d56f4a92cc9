// An integer mixing function applied a few rounds per element.
#include "prelude.h"

static __device__ unsigned mix(unsigned h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

extern "C" __global__ void int_hash(const unsigned *in, unsigned *out, unsigned seed, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n)
    return;
  unsigned h = in[i] ^ seed;
  for (int r = 0; r < 3; ++r)
    h = mix(h + (unsigned)r);
  out[i] = h;
}
