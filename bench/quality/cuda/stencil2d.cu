// Five-point Laplacian on the interior of a 2D grid.
#include "prelude.h"

extern "C" __global__ void stencil2d(const float *in, float *out, int w, int h) {
  int x = CTA_X * NTID_X + TID_X;
  int y = CTA_Y * NTID_Y + TID_Y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
    return;
  int idx = y * w + x;
  float c = in[idx];
  float s = in[idx - 1] + in[idx + 1] + in[idx - w] + in[idx + w];
  out[idx] = s - 4.0f * c;
}
