// Dot products of float rows accumulated in double, written back as float.
#include "prelude.h"

extern "C" __global__ void mixed_precision(const float *a, const float *b, float *out, int len) {
  int r = CTA_X * NTID_X + TID_X;
  double acc = 0.0;
  for (int j = 0; j < (len & 31); ++j) {
    double x = a[r * 32 + j];
    double y = b[r * 32 + j];
    acc += x * y;
  }
  out[r] = (float)acc;
}
