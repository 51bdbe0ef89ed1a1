// OpenCV's OpenCL path (Debian's libopencv-*-dev), unmodified: a real photograph through
// cv::UMat, so that OpenCV's own OpenCL kernels do the work (colour conversion, Gaussian blur,
// resizing both ways, Canny), and a small convolutional network through the DNN module's OpenCL
// target. Each is checked against OpenCV's CPU path on cv::Mat.
//
// OpenCV falls back to the CPU without a word when an OpenCL kernel fails to build or run, so
// OPENCV_OPENCL_RAISE_ERROR is set (a failure throws) and the program prints which device ran;
// which kernels ran is in the platform's report, and the tests check it there.
#include <opencv2/core.hpp>
#include <opencv2/core/ocl.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdlib>

#include "library_check.h"

using namespace library_check;

namespace {

/// The largest absolute difference between two arrays of the same shape and type.
double max_abs_diff(cv::InputArray a, cv::InputArray b) { return cv::norm(a, b, cv::NORM_INF); }

/// The fraction of elements where two 8-bit edge maps disagree.
double mismatch_fraction(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat diff;
  cv::compare(a, b, diff, cv::CMP_NE);
  return double(cv::countNonZero(diff)) / double(a.total());
}

/// A two-stage convolutional network with seeded weights: conv 3x3 (3 -> 8), ReLU, max pool 2x2,
/// conv 3x3 (8 -> 16), ReLU, then softmax over channels.
cv::dnn::Net small_cnn() {
  cv::dnn::Net net;
  cv::RNG rng(1234);
  auto conv = [&](const std::string& name, int in, int out) {
    cv::dnn::LayerParams p;
    p.set("kernel_size", 3);
    p.set("pad", 1);
    p.set("num_output", out);
    p.set("bias_term", true);
    const int wshape[] = {out, in, 3, 3};
    cv::Mat w(4, wshape, CV_32F), b(1, out, CV_32F);
    rng.fill(w, cv::RNG::UNIFORM, -0.3, 0.3);
    rng.fill(b, cv::RNG::UNIFORM, -0.1, 0.1);
    p.blobs = {w, b};
    return net.addLayerToPrev(name, "Convolution", p);
  };
  cv::dnn::LayerParams relu, pool, softmax;
  pool.set("pool", "max");
  pool.set("kernel_size", 2);
  pool.set("stride", 2);
  conv("conv1", 3, 8);
  net.addLayerToPrev("relu1", "ReLU", relu);
  net.addLayerToPrev("pool1", "Pooling", pool);
  conv("conv2", 8, 16);
  net.addLayerToPrev("relu2", "ReLU", relu);
  net.addLayerToPrev("prob", "Softmax", softmax);
  return net;
}

/// The network's output for `blob` on the given target.
cv::Mat forward(const cv::Mat& blob, int target) {
  cv::dnn::Net net = small_cnn();
  net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
  net.setPreferableTarget(target);
  net.setInput(blob);
  return net.forward().clone();
}

}  // namespace

int main(int argc, char** argv) {
  Checks checks;
  // Choose the platform as the other checks do, and make OpenCL failures loud.
  if (const char* want = std::getenv("CL_TEST_PLATFORM")) setenv("OPENCV_OPENCL_DEVICE", (std::string(want) + "::").c_str(), 0);
  setenv("OPENCV_OPENCL_RAISE_ERROR", "1", 0);
  setenv("OPENCV_OPENCL_CACHE_ENABLE", "0", 0);  // no binaries kept under $HOME between runs
  const std::string path = argc > 1 ? argv[1] : "/usr/share/glmark2/textures/nasa1.png";
  try {
    if (!cv::ocl::haveOpenCL()) throw std::runtime_error("OpenCV sees no OpenCL device");
    cv::ocl::setUseOpenCL(true);
    std::printf("device: %s (%s)\n", cv::ocl::Device::getDefault().name().c_str(),
                cv::ocl::Device::getDefault().vendorName().c_str());
    cv::Mat img = cv::imread(path, cv::IMREAD_COLOR);
    if (img.empty()) throw std::runtime_error("cannot read image " + path);
    std::printf("image: %s, %dx%d\n", path.c_str(), img.cols, img.rows);
    cv::UMat uimg = img.getUMat(cv::ACCESS_READ);

    cv::Mat gray;
    cv::UMat ugray;
    cv::cvtColor(img, gray, cv::COLOR_BGR2GRAY);
    cv::cvtColor(uimg, ugray, cv::COLOR_BGR2GRAY);
    checks.expect("cvtColor_bgr2gray", max_abs_diff(ugray, gray), 1);

    cv::Mat blur;
    cv::UMat ublur;
    cv::GaussianBlur(img, blur, cv::Size(5, 5), 1.5);
    cv::GaussianBlur(uimg, ublur, cv::Size(5, 5), 1.5);
    checks.expect("gaussian_blur_5x5", max_abs_diff(ublur, blur), 1);

    cv::Mat half, twice;
    cv::UMat uhalf, utwice;
    cv::resize(img, half, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
    cv::resize(uimg, uhalf, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
    checks.expect("resize_area_half", max_abs_diff(uhalf, half), 1);
    cv::resize(half, twice, img.size(), 0, 0, cv::INTER_LINEAR);
    cv::resize(uhalf, utwice, img.size(), 0, 0, cv::INTER_LINEAR);
    checks.expect("resize_linear_double", max_abs_diff(utwice, twice), 1);

    // Canny's OpenCL kernels follow the same gradient and hysteresis rules as the CPU's; ties in
    // the float magnitude may break the other way on a few pixels.
    cv::Mat edges;
    cv::UMat uedges;
    cv::Canny(gray, edges, 50, 150);
    cv::Canny(ugray, uedges, 50, 150);
    checks.expect("canny_50_150", mismatch_fraction(uedges.getMat(cv::ACCESS_READ), edges), 0.005);
    std::printf("canny: %d edge pixels on the CPU\n", cv::countNonZero(edges));

    cv::Mat blob = cv::dnn::blobFromImage(img, 1.0 / 255, cv::Size(64, 64), cv::Scalar(), true, false);
    cv::Mat cpu = forward(blob, cv::dnn::DNN_TARGET_CPU), gpu = forward(blob, cv::dnn::DNN_TARGET_OPENCL);
    checks.expect("dnn_cnn_forward", cpu.total() == gpu.total() ? max_abs_diff(gpu, cpu) / cv::norm(cpu, cv::NORM_INF) : INFINITY,
                  1e-4);
    cv::ocl::finish();
  } catch (const std::exception& e) {
    checks.fail("opencv", e.what());
  }
  return checks.exit_code();
}
