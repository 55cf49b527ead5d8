#pragma once
// A trained model's weights on disk (`dpareto tune` writes DIR/model.bin). Little-endian:
//   8 bytes  magic "DPMODEL1"
//   uint32   length L of the architecture name, then L bytes of the name (no terminator)
//   uint32   number of weights P, then P float32 values (the network's flat parameter vector)
// Nothing follows. Errors are one InputError line naming the file.
#include <Eigen/Core>
#include <string>

namespace dpareto::select {

struct ModelFile {
  std::string architecture;
  Eigen::VectorXf weights;
};

void write_model_file(const std::string& path, const ModelFile& model);
ModelFile read_model_file(const std::string& path);

}  // namespace dpareto::select
