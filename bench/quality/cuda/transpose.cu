// Matrix transpose through a padded shared tile.
#include "prelude.h"

#define T 8

extern "C" __global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[T][T + 1];
  int x = CTA_X * T + TID_X;
  int y = CTA_Y * T + TID_Y;
  if (x < w && y < h)
    tile[TID_Y][TID_X] = in[y * w + x];
  SYNC();
  x = CTA_Y * T + TID_X;
  y = CTA_X * T + TID_Y;
  if (x < h && y < w)
    out[y * h + x] = tile[TID_X][TID_Y];
}
