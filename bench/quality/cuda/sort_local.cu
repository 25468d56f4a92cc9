// Each thread sorts eight values in a local array (insertion sort).
#include "prelude.h"

extern "C" __global__ void sort_local(const int *in, int *out) {
  int base = (CTA_X * NTID_X + TID_X) * 8;
  int v[8];
  for (int i = 0; i < 8; ++i)
    v[i] = in[base + i];
  for (int i = 1; i < 8; ++i) {
    int key = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > key) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = key;
  }
  for (int i = 0; i < 8; ++i)
    out[base + i] = v[i];
}
