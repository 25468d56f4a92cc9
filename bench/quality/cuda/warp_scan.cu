// Inclusive prefix sum within each warp through shuffles.
#include "prelude.h"

extern "C" __global__ void warp_scan(const int *in, int *out) {
  int i = CTA_X * NTID_X + TID_X;
  int lane = TID_X & 31;
  int v = in[i];
  for (int d = 1; d < 32; d <<= 1) {
    int up = __nvvm_shfl_sync_up_i32(0xffffffffu, v, d, 0);
    if (lane >= d)
      v += up;
  }
  out[i] = v;
}
