// Packed 8-bit RGBA pixels to 8-bit luminance.
#include "prelude.h"

extern "C" __global__ void rgb_to_gray(const unsigned *rgba, unsigned char *gray, int n) {
  int i = CTA_X * NTID_X + TID_X;
  if (i >= n)
    return;
  unsigned p = rgba[i];
  unsigned r = p & 0xff, g = (p >> 8) & 0xff, b = (p >> 16) & 0xff;
  unsigned y = (77u * r + 150u * g + 29u * b) >> 8;
  gray[i] = (unsigned char)(y > 255u ? 255u : y);
}
