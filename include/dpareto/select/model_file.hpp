#pragma once
// A trained model's weights on disk (`dpareto tune` writes DIR/model.bin). Little-endian:
//   8 bytes  magic "DPMODEL2"
//   uint32   length L of the architecture name, then L bytes of the name (no terminator)
//   uint32   number of weights P, then P float32 values (the network's flat parameter vector:
//            per layer W (in × out) row-major, then the out biases)
// Nothing follows. Errors are one InputError line naming the file. Files of magic "DPMODEL1"
// (dpareto before 2026-12-03) hold each layer's W out-major (Wᵀ row-major) and are still read:
// ModelFile::out_major_weights says so, and learn::Network::from_out_major_weights converts.
#include <Eigen/Core>
#include <string>

namespace dpareto::select {

struct ModelFile {
  std::string architecture;
  Eigen::VectorXf weights;
  bool out_major_weights = false;  // read from a DPMODEL1 file
};

void write_model_file(const std::string& path, const ModelFile& model);

// What a caller expects of a model file: compared with its header before any weight is read or
// allocated (a 16 GiB file for another network costs nothing to refuse).
struct ModelExpectation {
  std::string architecture;
  std::size_t weights = 0;
  std::string owner;  // who expects it, for the message ("problem adult-logreg-sgd's network")
};

// Reads a model; InputError naming the file for a bad magic, a truncated or padded file, a weight
// count that does not match the file's length, a non-finite weight, or (with `expected`) another
// architecture or weight count.
ModelFile read_model_file(const std::string& path, const ModelExpectation* expected = nullptr);

}  // namespace dpareto::select
