#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../support/test_support.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/worker_slot.hpp"
#include "dpareto/problems/external_command_problem.hpp"
#include "dpareto/space/space_json.hpp"

namespace fs = std::filesystem;
using namespace dpareto;
using namespace dpareto::problems;

namespace {

const dpareto::test::TempRoot external_command_root("dpareto_oracle_test_");

space::Space two_params() {
  return space::Space({{"lr", space::Kind::continuous, space::Scale::log, 0.001, 0.1, {}},
                       {"epochs", space::Kind::integer, space::Scale::linear, 1, 20, {}}});
}

// A shell script oracle `body` in its own file; the command passes lr, epochs and the seed.
ExternalCommandProblem oracle(const fs::path& dir, const std::string& name, const std::string& body,
                              double timeout = 10) {
  const fs::path script = dir / (name + ".sh");
  std::ofstream(script) << "#!/bin/sh\n" << body << "\n";
  fs::permissions(script, fs::perms::owner_all);
  ExternalCommandOptions options;
  options.command = script.string() + " --lr {lr} --epochs {epochs} --seed {seed}";
  options.timeout_seconds = timeout;
  options.log_directory = dir.string();
  return ExternalCommandProblem(two_params(), options);
}

}  // namespace

TEST_CASE("the template is split into argv words and placeholders are substituted inside words") {
  ExternalCommandOptions options;
  options.command = R"(python3 'my script.py' --lr={lr} "--tag=a b" --n {epochs} x\ y {{lit}} '{"k": 1}' s{seed})";
  const ExternalCommandProblem p(two_params(), options);
  const auto argv = p.command_line({0.01, 5}, 42);
  const std::vector<std::string> expected{"python3", "my script.py", "--lr=0.01", "--tag=a b",  "--n",
                                          "5",       "x y",          "{lit}",     "{\"k\": 1}", "s42"};
  CHECK(argv == expected);
}

TEST_CASE("{seed32} is the seed's low 32 bits and {worker} the evaluation's slot, in argv and the environment") {
  ExternalCommandOptions options;
  options.command = "oracle --seed {seed} --seed32 {seed32} --gpu {worker} s{seed32}w{worker}";
  const ExternalCommandProblem p(two_params(), options);
  const std::uint64_t seed = 0xfedcba9876543210ULL;  // above 2^32: numpy.random.seed would refuse it
  const std::vector<std::string> outside{"oracle", "--seed", "18364758544493064720", "--seed32", "1985229328",
                                         "--gpu",  "0",      "s1985229328w0"};
  CHECK(p.command_line({0.01, 5}, seed) == outside);
  {
    const WorkerSlotScope slot(3);
    CHECK(p.command_line({0.01, 5}, seed)[6] == "3");
    const WorkerSlotScope inner(5);
    CHECK(p.command_line({0.01, 5}, seed).back() == "s1985229328w5");
  }
  CHECK(p.command_line({0.01, 5}, seed)[6] == "0");  // restored when the scope ends

  const auto dir = external_command_root.dir("env32");
  const fs::path script = dir / "env.sh";
  std::ofstream(script)
      << "#!/bin/sh\necho \"{\\\"epsilon\\\": $DPARETO_WORKER, \\\"utility\\\": 0.$DPARETO_SEED32}\"\n";
  fs::permissions(script, fs::perms::owner_all);
  options.command = script.string();
  const ExternalCommandProblem env(two_params(), options);
  const WorkerSlotScope slot(2);
  const auto e = env.evaluate({0.01, 5}, (std::uint64_t{7} << 32) + 123);
  REQUIRE_MESSAGE(e.ok, e.message);
  CHECK(e.epsilon == 2);
  CHECK(e.utility == doctest::Approx(0.123));
}

TEST_CASE("bad templates are refused with the source named") {
  ExternalCommandOptions options;
  options.command = "python3 train.py --lr {lr} --momentum {momentum}";
  CHECK_THROWS_WITH_AS(ExternalCommandProblem(two_params(), options),
                       doctest::Contains("--oracle-cmd: placeholder {momentum} names no parameter"), InputError);
  options.command = "python3 'train.py --lr {lr}";
  CHECK_THROWS_WITH_AS(ExternalCommandProblem(two_params(), options),
                       "--oracle-cmd: mismatched quotes in 'python3 'train.py --lr {lr}'", InputError);
  options.command = "python3 train.py --gpu {worker}";
  for (const std::string reserved : {"seed", "seed32", "worker"})
    CHECK_THROWS_WITH_AS(
        ExternalCommandProblem(space::Space({{reserved, space::Kind::integer, space::Scale::linear, 1, 9, {}}}),
                               options),
        ("--oracle-cmd: a parameter named '" + reserved + "' collides with the {" + reserved + "} placeholder").c_str(),
        InputError);
  // Fuzz finding (fuzz/oracle_command.cpp): the template was echoed raw, a newline split the message.
  options.command = "sh -c 'echo{\n\x01";
  CHECK_THROWS_WITH_AS(ExternalCommandProblem(two_params(), options),
                       "--oracle-cmd: mismatched quotes in 'sh -c 'echo{?\?'", InputError);
  options.command = "   ";
  CHECK_THROWS_WITH_AS(ExternalCommandProblem(two_params(), options), doctest::Contains("empty"), InputError);
}

TEST_CASE("a value can never become shell syntax: there is no shell, and values are plain numbers") {
  const auto dir = external_command_root.dir("injection");
  ExternalCommandOptions options;
  options.command = "touch " + (dir / "pwned").string() + "{lr};echo";  // ';' stays inside one argv word
  ExternalCommandProblem p(two_params(), options);
  const auto e = p.evaluate({0.01, 5}, 1);
  CHECK_FALSE(e.ok);  // touch prints nothing: unparseable output
  CHECK(fs::exists(dir / "pwned0.01;echo"));
  CHECK_THROWS_AS(p.command_line({std::nan(""), 5}, 1), Error);
}

TEST_CASE("external oracle: success, failure, garbage, NaN, timeout") {
  const auto dir = external_command_root.dir("outcomes");
  SUBCASE("success, with the values reaching the script and stderr logged") {
    auto p = oracle(dir, "ok",
                    "echo \"training with $*\" >&2\n"
                    "echo '{\"epsilon\": 1.5, \"utility\": 0.75, \"utility_min\": 0.7, \"utility_max\": 0.8, "
                    "\"delta\": 1e-5, \"extra\": \"ignored\"}'\n"
                    "[ \"$DPARETO_PARAM_epochs\" = 7 ] || exit 9");
    const auto e = p.evaluate({0.01, 7}, 5);
    INFO(e.message);
    REQUIRE(e.ok);
    CHECK(e.epsilon == 1.5);
    CHECK(e.utility == 0.75);
    CHECK(e.utility_min == 0.7);
    CHECK(e.utility_max == 0.8);
    CHECK(e.delta == 1e-5);
    std::ifstream log(p.log_path(5));
    std::string line;
    std::getline(log, line);
    CHECK(line == "training with --lr 0.01 --epochs 7 --seed 5");
  }
  SUBCASE("progress lines before the JSON object and Python's Infinity are accepted") {
    auto p = oracle(dir, "progress", "echo 'epoch 1'\necho '{\"epsilon\": Infinity, \"utility\": 0.5}'");
    const auto e = p.evaluate({0.01, 7}, 5);
    INFO(e.message);
    CHECK(e.ok);
    CHECK(std::isinf(e.epsilon));
  }
  SUBCASE("a non-zero exit is a failed evaluation with the status and the last stderr line") {
    auto p = oracle(dir, "fail", "echo 'CUDA out of memory' >&2\nexit 3");
    const auto e = p.evaluate({0.01, 7}, 5);
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("exit status 3") != std::string::npos);
    CHECK(e.message.find("CUDA out of memory") != std::string::npos);
  }
  SUBCASE("garbage on stdout") {
    auto p = oracle(dir, "garbage", "echo 'accuracy is good'");
    const auto e = p.evaluate({0.01, 7}, 5);
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("unparseable output 'accuracy is good'") != std::string::npos);
  }
  SUBCASE("missing keys, nothing printed") {
    auto p = oracle(dir, "missing", "echo '{\"epsilon\": 1}'");
    CHECK(p.evaluate({0.01, 7}, 5).message.find("no \"utility\"") != std::string::npos);
    auto q = oracle(dir, "silent", "true");
    CHECK(q.evaluate({0.01, 7}, 5).message.find("printed nothing") != std::string::npos);
  }
  SUBCASE("NaN utility, as Python's json.dumps writes it") {
    auto p = oracle(dir, "nan", "echo '{\"epsilon\": 1.0, \"utility\": NaN}'");
    const auto e = p.evaluate({0.01, 7}, 5);
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("invalid utility nan") != std::string::npos);
  }
  SUBCASE("a hanging command is killed with its whole process group at the timeout") {
    const auto marker = dir / "grandchild-alive";
    auto p = oracle(dir, "hang", "(sleep 2; touch " + marker.string() + ") &\nsleep 30", 0.3);
    const auto start = std::chrono::steady_clock::now();
    const auto e = p.evaluate({0.01, 7}, 5);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("timed out after 0.3 s") != std::string::npos);
    CHECK(seconds < 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(2300));
    CHECK_FALSE(fs::exists(marker));  // the background grandchild died with the group
  }
  SUBCASE("the command dies with dpareto: a killed run leaves no orphaned evaluation") {
    const auto marker = dir / "finished-after-parent-death";
    auto p = oracle(dir, "orphan", "sleep 1\ntouch " + marker.string());
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      p.evaluate({0.01, 7}, 5);
      ::_exit(0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    CHECK_FALSE(fs::exists(marker));
  }
  SUBCASE("a command that does not exist") {
    ExternalCommandOptions options;
    options.command = "/nonexistent/train --lr {lr}";
    const auto e = ExternalCommandProblem(two_params(), options).evaluate({0.01, 7}, 5);
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("cannot run '/nonexistent/train'") != std::string::npos);
  }
}

TEST_CASE("space.json: parsing, defaults and one-line errors naming the file") {
  const auto dir = external_command_root.dir("space");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const auto good = write("good.json", R"({"parameters": [
      {"name": "lr", "kind": "continuous", "low": 0.001, "high": 0.1, "scale": "log"},
      {"name": "epochs", "kind": "integer", "low": 1, "high": 20}]})");
  const auto s = space::read_space_json(good);
  REQUIRE(s.dimension() == 2);
  CHECK(s.parameter(0).scale == space::Scale::log);
  CHECK(s.parameter(1).kind == space::Kind::integer);
  CHECK(s.parameter(1).scale == space::Scale::linear);
  CHECK(space::space_from_json(space::space_to_json(s), "x").signature() == s.signature());

  auto refused = [&](const std::string& name, const std::string& text, const std::string& fragment) {
    const auto path = write(name, text);
    try {
      space::read_space_json(path);
      FAIL("accepted " << text);
    } catch (const InputError& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.rfind(path, 0) == 0);
      CHECK(what.find(fragment) != std::string::npos);
    }
  };
  refused("kind.json", R"({"parameters": [{"name": "lr", "kind": "float", "low": 0, "high": 1}]})",
          "unknown kind \"float\"");
  refused("inverted.json", R"({"parameters": [{"name": "lr", "kind": "continuous", "low": 1, "high": 0}]})",
          "inverted bounds");
  refused("scale.json", R"({"parameters": [{"name": "lr", "kind": "continuous", "low": 1, "high": 2, "scale": "ln"}]})",
          "unknown scale");
  refused("typo.json", R"({"parameters": [{"name": "lr", "kind": "continuous", "low": 1, "hgh": 2}]})",
          "unknown key \"hgh\"");
  refused("syntax.json", R"({"parameters": [)", "not valid JSON");
  refused("empty.json", R"({"parameters": []})", "empty");
  CHECK_THROWS_WITH_AS(space::read_space_json((dir / "none.json").string()), doctest::Contains("cannot open"),
                       InputError);
}

TEST_CASE("external oracle: hostile or chatty output is a failed evaluation with its reason, never a crash") {
  const auto dir = external_command_root.dir("hostile");
  SUBCASE("deeply nested JSON (it overflowed the parser's stack) is refused by its depth") {
    auto p = oracle(dir, "nested", "python3 -c \"print('[' * 200000)\"");
    const auto e = p.evaluate({0.01, 7}, 5);
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("nests deeper than 64 levels") != std::string::npos);
  }
  SUBCASE("6 MiB of progress lines before the JSON: the last line is still found") {
    auto p = oracle(dir, "chatty",
                    "python3 -c \"import sys\nfor i in range(100000): sys.stdout.write('progress line %06d ' % i + 'x' "
                    "* 40 + '\\n')\n"
                    "print('{\\\"epsilon\\\": 2, \\\"utility\\\": 0.5}')\"");
    const auto e = p.evaluate({0.01, 7}, 5);
    INFO(e.message);
    CHECK(e.ok);
    CHECK(e.epsilon == 2);
  }
  SUBCASE("so much output that nothing parses: the failure says what was cut") {
    auto p = oracle(dir, "flood", "python3 -c \"import sys\nsys.stdout.write('x' * (6 << 20))\"");
    const auto e = p.evaluate({0.01, 7}, 5);
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("only the last 4 MiB of stdout were kept") != std::string::npos);
  }
  SUBCASE("a number beyond double's range is unparseable output (fuzz finding: the JSON reader's error escaped)") {
    auto p = oracle(dir, "huge", "echo '{\"epsilon\": 8e999, \"utility\": 0.5}'");
    const auto e = p.evaluate({0.01, 7}, 5);
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("unparseable output '{\"epsilon\": 8e999, \"utility\": 0.5}'") != std::string::npos);
    const auto out = parse_oracle_output("{\"epsilon\": 8.2644558744698641e999lta\": 1e-05}\n", 1e-5);
    CHECK_FALSE(out.ok);
    CHECK(out.message.find("unparseable output") == 0);
  }
  SUBCASE("binary junk, NUL bytes included, is never echoed raw") {
    auto p = oracle(dir, "junk", "printf 'ab\\000\\001\\377cd'");
    const auto e = p.evaluate({0.01, 7}, 5);
    CHECK_FALSE(e.ok);
    CHECK(e.message.find("'ab???cd'") != std::string::npos);
  }
}

TEST_CASE("external oracle: a symlink planted at the log's name is not followed") {
  const auto dir = external_command_root.dir("symlink");
  auto p = oracle(dir, "ok", "echo 'secret written to the log' >&2\necho '{\"epsilon\": 1, \"utility\": 0.5}'");
  const fs::path victim = dir / "victim.txt";
  std::ofstream(victim) << "untouched\n";
  fs::create_symlink(victim, p.log_path(5));
  const auto e = p.evaluate({0.01, 7}, 5);
  INFO(e.message);
  CHECK(e.ok);
  CHECK(dpareto::test::read_text(victim) == "untouched\n");
  CHECK_FALSE(fs::is_symlink(p.log_path(5)));
  CHECK(dpareto::test::read_text(p.log_path(5)) == "secret written to the log\n");
}
