// k-means assignment step (Rodinia kmeans): each point picks its nearest centroid; features
// are stored feature-major (point-contiguous) so neighbouring work-items read neighbouring words.
__kernel void kmeans_assign(__global const float* features, __global const float* centroids,
                            __global int* membership, uint npoints, uint nclusters, uint nfeatures) {
  uint p = get_global_id(0);
  if (p >= npoints) return;
  int best = 0;
  float best_dist = INFINITY;
  for (uint c = 0; c < nclusters; ++c) {
    float d = 0.0f;
    for (uint f = 0; f < nfeatures; ++f) {
      float diff = features[f * npoints + p] - centroids[c * nfeatures + f];
      d += diff * diff;
    }
    if (d < best_dist) {
      best_dist = d;
      best = (int)c;
    }
  }
  membership[p] = best;
}
