// y = a*x + y with a bounds check.
#include "prelude.h"

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
