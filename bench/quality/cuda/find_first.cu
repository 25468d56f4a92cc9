// Each thread scans a row for the first element above a threshold and
// stops there (early exit from the loop).
#include "prelude.h"

extern "C" __global__ void find_first(const float *rows, int *pos, float thr, int width) {
  int r = CTA_X * NTID_X + TID_X;
  const float *row = rows + r * 16;
  int found = -1;
  for (int j = 0; j < 16 && j < width; ++j) {
    if (row[j] > thr) {
      found = j;
      break;
    }
  }
  pos[r] = found;
}
