// 4x4 matrix times vector per thread, the matrix copied into a local array
// and indexed by constants after unrolling.
#include "prelude.h"

extern "C" __global__ void small_matvec(const float *mats, const float *vecs, float *out) {
  int t = CTA_X * NTID_X + TID_X;
  float m[16];
  float v[4];
#pragma unroll
  for (int k = 0; k < 16; ++k)
    m[k] = mats[t * 16 + k];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    v[k] = vecs[t * 4 + k];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    float acc = 0.0f;
#pragma unroll
    for (int c = 0; c < 4; ++c)
      acc += m[r * 4 + c] * v[c];
    out[t * 4 + r] = acc;
  }
}
