// Rodinia lavaMD: particles in a 3-D grid of boxes; every particle accumulates the potential and
// force of all particles in its own box and the up to 26 boxes around it. One work-group per home
// box; each neighbour box's particles are staged in LDS in turn.
#define THREADS 128  // work-items per box (Rodinia's NUMBER_THREADS)

/// A particle's "v" term and position, or its accumulated potential and force.
typedef struct {
  float v, x, y, z;
} four_vector;

// boxes holds 27 ints per box: the neighbour count, then the neighbours' box numbers. per_box
// particles live contiguously per box in rv (positions), qv (charges) and fv (results, zeroed).
__kernel void lavamd(float alpha, uint per_box, __global const int* boxes, __global const four_vector* rv,
                     __global const float* qv, __global four_vector* fv, __local four_vector* ra,
                     __local four_vector* rb, __local float* qb) {
  uint bx = get_group_id(0), tx = get_local_id(0);
  float a2 = 2.0f * alpha * alpha;
  uint home = bx * per_box;
  __global const int* box = boxes + bx * 27;
  __global four_vector* fa = fv + home;
  for (uint i = tx; i < per_box; i += THREADS) ra[i] = rv[home + i];
  int nn = box[0];
  for (int k = 0; k <= nn; ++k) {  // k == 0: the home box itself
    uint other = (k == 0 ? bx : (uint)box[k]) * per_box;
    for (uint j = tx; j < per_box; j += THREADS) {
      rb[j] = rv[other + j];
      qb[j] = qv[other + j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = tx; i < per_box; i += THREADS) {
      four_vector a = ra[i];
      for (uint j = 0; j < per_box; ++j) {
        four_vector b = rb[j];
        float r2 = a.v + b.v - (a.x * b.x + a.y * b.y + a.z * b.z);
        float u2 = a2 * r2;
        float vij = exp(-u2);
        float fs = 2.0f * vij;
        float q = qb[j];
        fa[i].v += q * vij;
        fa[i].x += q * (fs * (a.x - b.x));
        fa[i].y += q * (fs * (a.y - b.y));
        fa[i].z += q * (fs * (a.z - b.z));
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // rb and qb are refilled next
  }
}
