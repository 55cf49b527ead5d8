// select::Ledger::read (a dataset's privacy ledger), then what `dpareto ledger show FILE` prints of
// it: the total at the cap's delta (else 1e-5) and the ledger as JSON.
#include "dpareto/select/ledger.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = dpareto::fuzz::write_scratch("ledger.json", dpareto::fuzz::input_text(data, size));
  dpareto::fuzz::parses_or_refuses([&] {
    const auto ledger = dpareto::select::Ledger::read(path);
    ledger.total(ledger.cap() ? ledger.cap()->delta : 1e-5);
    ledger.to_json();
  });
  return 0;
}
