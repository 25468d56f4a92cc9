// C = A * B, one thread per output element, no tiling.
#include "prelude.h"

extern "C" __global__ void matmul_naive(const float *A, const float *B, float *C, int m, int k, int n) {
  int row = CTA_Y * NTID_Y + TID_Y;
  int col = CTA_X * NTID_X + TID_X;
  if (row >= m || col >= n)
    return;
  float acc = 0.0f;
  for (int p = 0; p < (k & 63); ++p)
    acc += A[row * k + p] * B[p * n + col];
  C[row * n + col] = acc;
}
