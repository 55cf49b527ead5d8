// Numbers for people (core/readable_number): four significant digits, integers as integers, and a
// privacy cost never shown below its value.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

#include "dpareto/core/readable_number.hpp"

using namespace dpareto;

TEST_CASE("readable_number: four significant digits, whole numbers whole, no round-trip noise") {
  CHECK(readable_number(6.526105559478178) == "6.526");
  CHECK(readable_number(0.1 + 0.2) == "0.3");
  CHECK(readable_number(0.8470001) == "0.847");
  CHECK(readable_number(1200) == "1200");
  CHECK(readable_number(-3) == "-3");
  CHECK(readable_number(12345678) == "12345678");
  CHECK(readable_number(1.5e-7) == "1.5e-07");
  CHECK(readable_number(123456.7) == "1.235e+05");
  CHECK(readable_number(0) == "0");
  CHECK(readable_number(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(readable_number(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(readable_number(std::nan("")) == "nan");
}

TEST_CASE("readable_rounded_up: rounded up, never below the value") {
  CHECK(readable_rounded_up(1.00049) == "1.001");
  CHECK(readable_rounded_up(0.99999) == "1");
  CHECK(readable_rounded_up(2.5) == "2.5");
  CHECK(readable_rounded_up(1e-5) == "1e-05");
  CHECK(readable_rounded_up(1.00001e-5) == "1.001e-05");
  CHECK(readable_rounded_up(9.9991) == "10");
  CHECK(readable_rounded_up(std::numeric_limits<double>::infinity()) == "inf");
  // Against many values over 12 decades: the text read back is >= the value and within one unit of
  // its fourth significant digit.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-6, 6);
  for (int i = 0; i < 20000; ++i) {
    const double v = std::pow(10.0, exponent(rng));
    const std::string text = readable_rounded_up(v);
    const double shown = std::strtod(text.c_str(), nullptr);
    CAPTURE(v);
    CAPTURE(text);
    REQUIRE(shown >= v);
    REQUIRE(shown - v <= 1.0001e-3 * std::pow(10.0, std::floor(std::log10(v)) + 1));
  }
}

TEST_CASE("readable_json: numbers readable (or rounded up), objects as key=value, arrays bracketed") {
  const auto j = nlohmann::json::parse(R"({"lr": 0.012345678901234567, "epochs": 12, "tag": "a", "none": null})");
  CHECK(readable_json(j) == "epochs=12, lr=0.01235, none=none, tag=a");
  CHECK(readable_json(nlohmann::json::parse("[1.00049, 2.5, 0.333333333333]"), true) == "[1.001, 2.5, 0.3334]");
  CHECK(readable_json(nlohmann::json::parse("[1.00049, 2.5, 0.333333333333]")) == "[1, 2.5, 0.3333]");
  CHECK(readable_json(true) == "true");
}

TEST_CASE("readable_duration: seconds, minutes or hours") {
  CHECK(readable_duration(44.6) == "45 s");
  CHECK(readable_duration(119) == "119 s");
  CHECK(readable_duration(720) == "12 min");
  CHECK(readable_duration(12600) == "3.5 h");
  CHECK(readable_duration(std::numeric_limits<double>::infinity()) == "unknown time");
}
