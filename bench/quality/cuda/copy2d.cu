// Copy a sub-rectangle between pitched 2D buffers, leaving early outside it.
#include "prelude.h"

extern "C" __global__ void copy2d(const float *src, int spitch, float *dst, int dpitch, int w, int h) {
  int x = CTA_X * NTID_X + TID_X;
  int y = CTA_Y * NTID_Y + TID_Y;
  if (x >= w)
    return;
  if (y >= h)
    return;
  dst[y * dpitch + x] = src[y * spitch + x];
}
