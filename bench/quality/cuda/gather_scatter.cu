// Gather through an index array, transform, scatter through another.
#include "prelude.h"

extern "C" __global__ void gather_scatter(const float *src, const int *gidx, const int *sidx, float *dst, int n, int m) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n || m <= 0)
    return;
  int g = gidx[i];
  int s = sidx[i];
  g = ((g % m) + m) % m;
  s = ((s % m) + m) % m;
  dst[s] = 2.0f * src[g] + 1.0f;
}
