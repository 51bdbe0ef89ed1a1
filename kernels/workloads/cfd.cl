// Rodinia cfd (euler3d): an explicit three-stage Runge-Kutta finite-volume solver of the 3-D Euler
// equations for compressible flow on an unstructured mesh, one work-item per cell. Cell data is
// stored variable-major (variable v of cell i at [i + v * nelr]); each cell has NNB faces, whose
// neighbour index is a cell, -1 (a wall of the wing) or -2 (the far field).
#define GAMMA 1.4f
#define NNB 4
#define RK 3
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY 4
#define NVAR 5
// Far-field block `ff`: the 5 conserved variables, then the x, y, z flux contributions of
// momentum x, y, z and of density energy (3 each).
#define FF_FC_MOMENTUM_X 5
#define FF_FC_MOMENTUM_Y 8
#define FF_FC_MOMENTUM_Z 11
#define FF_FC_DENSITY_ENERGY 14

// The primitive quantities of one cell's state, and its flux contributions along x, y and z.
typedef struct {
  float density, density_energy, pressure, speed_sqd, speed_of_sound;
  float3 momentum, velocity;
  float3 fc_momentum_x, fc_momentum_y, fc_momentum_z, fc_density_energy;
} State;

// Reads cell i's conserved variables and derives velocity, pressure and the speed of sound.
static State load_state(__global const float* variables, int i, int nelr) {
  State s;
  s.density = variables[i + VAR_DENSITY * nelr];
  s.momentum.x = variables[i + (VAR_MOMENTUM + 0) * nelr];
  s.momentum.y = variables[i + (VAR_MOMENTUM + 1) * nelr];
  s.momentum.z = variables[i + (VAR_MOMENTUM + 2) * nelr];
  s.density_energy = variables[i + VAR_DENSITY_ENERGY * nelr];
  s.velocity.x = s.momentum.x / s.density;
  s.velocity.y = s.momentum.y / s.density;
  s.velocity.z = s.momentum.z / s.density;
  s.speed_sqd = s.velocity.x * s.velocity.x + s.velocity.y * s.velocity.y + s.velocity.z * s.velocity.z;
  s.pressure = (GAMMA - 1.0f) * (s.density_energy - 0.5f * s.density * s.speed_sqd);
  s.speed_of_sound = sqrt(GAMMA * s.pressure / s.density);
  return s;
}

// The convective flux tensor of a state: momentum flux rows and the energy flux vector.
static void flux_contribution(State* s) {
  s->fc_momentum_x.x = s->velocity.x * s->momentum.x + s->pressure;
  s->fc_momentum_x.y = s->velocity.x * s->momentum.y;
  s->fc_momentum_x.z = s->velocity.x * s->momentum.z;
  s->fc_momentum_y.x = s->fc_momentum_x.y;
  s->fc_momentum_y.y = s->velocity.y * s->momentum.y + s->pressure;
  s->fc_momentum_y.z = s->velocity.y * s->momentum.z;
  s->fc_momentum_z.x = s->fc_momentum_x.z;
  s->fc_momentum_z.y = s->fc_momentum_y.z;
  s->fc_momentum_z.z = s->velocity.z * s->momentum.z + s->pressure;
  float de_p = s->density_energy + s->pressure;
  s->fc_density_energy.x = s->velocity.x * de_p;
  s->fc_density_energy.y = s->velocity.y * de_p;
  s->fc_density_energy.z = s->velocity.z * de_p;
}

// Rodinia's copy of the variables before a time step (a device-to-device buffer copy).
__kernel void cfd_copy(__global float* dst, __global const float* src, int nelr) {
  int i = get_global_id(0);
  if (i >= nelr) return;
  for (int v = 0; v < NVAR; ++v) dst[i + v * nelr] = src[i + v * nelr];
}

// The local time step of each cell from its size and fastest wave speed.
__kernel void cfd_step_factor(__global const float* variables, __global const float* areas,
                              __global float* step_factors, int nelr) {
  int i = get_global_id(0);
  if (i >= nelr) return;
  State s = load_state(variables, i, nelr);
  step_factors[i] = 0.5f / (sqrt(areas[i]) * (sqrt(s.speed_sqd) + s.speed_of_sound));
}

// Sums each cell's fluxes over its faces, in face order: central fluxes plus artificial
// viscosity between cells, pressure on wing walls, central fluxes against the far field.
__kernel void cfd_flux(__global const int* neighbours, __global const float* normals,
                       __global const float* variables, __constant float* ff, __global float* fluxes, int nelr) {
  const float smoothing_coefficient = 0.2f;
  int i = get_global_id(0);
  if (i >= nelr) return;
  State si = load_state(variables, i, nelr);
  flux_contribution(&si);
  float speed_i = sqrt(si.speed_sqd);
  float flux_density = 0.0f, flux_density_energy = 0.0f;
  float3 flux_momentum = (float3)(0.0f, 0.0f, 0.0f);
  for (int j = 0; j < NNB; ++j) {
    int nb = neighbours[i + j * nelr];
    float3 normal;
    normal.x = normals[i + (j + 0 * NNB) * nelr];
    normal.y = normals[i + (j + 1 * NNB) * nelr];
    normal.z = normals[i + (j + 2 * NNB) * nelr];
    float normal_len = sqrt(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
    if (nb >= 0) {
      State sn = load_state(variables, nb, nelr);
      flux_contribution(&sn);
      float factor = -normal_len * smoothing_coefficient * 0.5f *
                     (speed_i + sqrt(sn.speed_sqd) + si.speed_of_sound + sn.speed_of_sound);
      flux_density += factor * (si.density - sn.density);
      flux_density_energy += factor * (si.density_energy - sn.density_energy);
      flux_momentum.x += factor * (si.momentum.x - sn.momentum.x);
      flux_momentum.y += factor * (si.momentum.y - sn.momentum.y);
      flux_momentum.z += factor * (si.momentum.z - sn.momentum.z);
      factor = 0.5f * normal.x;
      flux_density += factor * (sn.momentum.x + si.momentum.x);
      flux_density_energy += factor * (sn.fc_density_energy.x + si.fc_density_energy.x);
      flux_momentum.x += factor * (sn.fc_momentum_x.x + si.fc_momentum_x.x);
      flux_momentum.y += factor * (sn.fc_momentum_y.x + si.fc_momentum_y.x);
      flux_momentum.z += factor * (sn.fc_momentum_z.x + si.fc_momentum_z.x);
      factor = 0.5f * normal.y;
      flux_density += factor * (sn.momentum.y + si.momentum.y);
      flux_density_energy += factor * (sn.fc_density_energy.y + si.fc_density_energy.y);
      flux_momentum.x += factor * (sn.fc_momentum_x.y + si.fc_momentum_x.y);
      flux_momentum.y += factor * (sn.fc_momentum_y.y + si.fc_momentum_y.y);
      flux_momentum.z += factor * (sn.fc_momentum_z.y + si.fc_momentum_z.y);
      factor = 0.5f * normal.z;
      flux_density += factor * (sn.momentum.z + si.momentum.z);
      flux_density_energy += factor * (sn.fc_density_energy.z + si.fc_density_energy.z);
      flux_momentum.x += factor * (sn.fc_momentum_x.z + si.fc_momentum_x.z);
      flux_momentum.y += factor * (sn.fc_momentum_y.z + si.fc_momentum_y.z);
      flux_momentum.z += factor * (sn.fc_momentum_z.z + si.fc_momentum_z.z);
    } else if (nb == -1) {
      flux_momentum.x += normal.x * si.pressure;
      flux_momentum.y += normal.y * si.pressure;
      flux_momentum.z += normal.z * si.pressure;
    } else if (nb == -2) {
      float factor = 0.5f * normal.x;
      flux_density += factor * (ff[VAR_MOMENTUM + 0] + si.momentum.x);
      flux_density_energy += factor * (ff[FF_FC_DENSITY_ENERGY + 0] + si.fc_density_energy.x);
      flux_momentum.x += factor * (ff[FF_FC_MOMENTUM_X + 0] + si.fc_momentum_x.x);
      flux_momentum.y += factor * (ff[FF_FC_MOMENTUM_Y + 0] + si.fc_momentum_y.x);
      flux_momentum.z += factor * (ff[FF_FC_MOMENTUM_Z + 0] + si.fc_momentum_z.x);
      factor = 0.5f * normal.y;
      flux_density += factor * (ff[VAR_MOMENTUM + 1] + si.momentum.y);
      flux_density_energy += factor * (ff[FF_FC_DENSITY_ENERGY + 1] + si.fc_density_energy.y);
      flux_momentum.x += factor * (ff[FF_FC_MOMENTUM_X + 1] + si.fc_momentum_x.y);
      flux_momentum.y += factor * (ff[FF_FC_MOMENTUM_Y + 1] + si.fc_momentum_y.y);
      flux_momentum.z += factor * (ff[FF_FC_MOMENTUM_Z + 1] + si.fc_momentum_z.y);
      factor = 0.5f * normal.z;
      flux_density += factor * (ff[VAR_MOMENTUM + 2] + si.momentum.z);
      flux_density_energy += factor * (ff[FF_FC_DENSITY_ENERGY + 2] + si.fc_density_energy.z);
      flux_momentum.x += factor * (ff[FF_FC_MOMENTUM_X + 2] + si.fc_momentum_x.z);
      flux_momentum.y += factor * (ff[FF_FC_MOMENTUM_Y + 2] + si.fc_momentum_y.z);
      flux_momentum.z += factor * (ff[FF_FC_MOMENTUM_Z + 2] + si.fc_momentum_z.z);
    }
  }
  fluxes[i + VAR_DENSITY * nelr] = flux_density;
  fluxes[i + (VAR_MOMENTUM + 0) * nelr] = flux_momentum.x;
  fluxes[i + (VAR_MOMENTUM + 1) * nelr] = flux_momentum.y;
  fluxes[i + (VAR_MOMENTUM + 2) * nelr] = flux_momentum.z;
  fluxes[i + VAR_DENSITY_ENERGY * nelr] = flux_density_energy;
}

// Runge-Kutta stage j: variables = old_variables + step_factor / (RK + 1 - j) * fluxes.
__kernel void cfd_time_step(int j, int nelr, __global const float* old_variables, __global float* variables,
                            __global const float* step_factors, __global const float* fluxes) {
  int i = get_global_id(0);
  if (i >= nelr) return;
  float factor = step_factors[i] / (float)(RK + 1 - j);
  for (int v = 0; v < NVAR; ++v) variables[i + v * nelr] = old_variables[i + v * nelr] + factor * fluxes[i + v * nelr];
}
