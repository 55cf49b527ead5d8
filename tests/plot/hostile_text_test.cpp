// Text from files meets gnuplot, Markdown and the filesystem (issue 14, item 1): nothing runs,
// nothing renders as markup, nothing is written through a symlink.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "../support/test_support.hpp"
#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/plot/gnuplot.hpp"
#include "run_fixtures.hpp"

using namespace dpareto;
namespace fs = std::filesystem;
using dpareto::test::read_text;
using dpareto::test::run_cli;
using dpareto::test::TempRoot;

namespace {

// Every way a string could turn into gnuplot code: backquotes, system(), @macros, either quote
// closing the string, a newline or semicolon starting a new command, the shell escape `!`,
// backslashes, control characters and bytes that are not UTF-8. Each one would create MARK.
std::vector<std::string> injections(const std::string& mark) {
  return {"svt`touch " + mark + "`",
          "x\" . system(\"touch " + mark + "\") . \"",
          "x' . system('touch " + mark + "') . '",
          "@cmd",
          "a\nsystem(\"touch " + mark + "\")",
          "a\n!touch " + mark,
          "a'; system('touch " + mark + "'); print '",
          "a\"; system(\"touch " + mark + "\"); print \"",
          "back\\slash\\' . system('touch " + mark + "') . '",
          std::string("nul\0byte", 8) + "\r\x1b[31mred\x07",
          "caf\xe9 \xff\xfe \xc0\x80 \xed\xa0\x80 \xe2\x82"};
}

}  // namespace

TEST_CASE("clean_utf8: valid UTF-8 kept, every invalid sequence U+FFFD, control characters spaces") {
  CHECK(clean_utf8("ε ≤ 1, 𝛿 = 1e-5") == "ε ≤ 1, 𝛿 = 1e-5");
  CHECK(clean_utf8("a\nb") == "a\nb");
  CHECK(clean_utf8("a\tb\rc\x1b[0m\x7f") == "a b c [0m ");
  CHECK(clean_utf8("\xc2\x9b"
                   "31m") == " 31m");  // C1 CSI
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(clean_utf8("\x80") == fffd);                                   // lone continuation byte
  CHECK(clean_utf8("\xc0\xaf") == fffd + fffd);                        // overlong '/'
  CHECK(clean_utf8("\xe0\x80\xaf") == fffd + fffd + fffd);             // overlong, three bytes
  CHECK(clean_utf8("\xed\xa0\x80") == fffd + fffd + fffd);             // surrogate U+D800
  CHECK(clean_utf8("\xf4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // above U+10FFFF
  CHECK(clean_utf8("\xf5") == fffd);
  CHECK(clean_utf8("ab\xe2\x82") == "ab" + fffd + fffd);        // truncated '€'
  CHECK(clean_utf8("\xf0\x9f\x98\x80") == "\xf0\x9f\x98\x80");  // U+1F600, four bytes
}

TEST_CASE("literal: gnuplot reads every hostile string back as the same text and runs nothing") {
  TempRoot root("dpareto-literal-");
  const auto dir = root.dir("gp");
  const std::string mark = (dir / "MARK").string();
  const auto strings = injections(mark);
  for (std::size_t k = 0; k < strings.size(); ++k) {
    INFO("string " << k);
    const auto printed = dir / ("printed" + std::to_string(k));
    // `cmd` is defined so that an @macro expansion would run it.
    plot::GnuplotScript script;
    script.command("cmd = \"system('touch " + mark + "')\"");
    script.command("set print " + plot::literal(printed.string()));
    script.command("print " + plot::literal(strings[k]));
    script.command("set title " + plot::literal(strings[k]) + " noenhanced");
    script.command("set label 1 " + plot::literal(strings[k]) + " at 0, 0");
    write_file_atomically(dir / "t.gp", script.text());
    const std::string command = "cd '" + dir.string() + "' && gnuplot -d t.gp 2>gnuplot.err";
    REQUIRE_MESSAGE(std::system(command.c_str()) == 0, read_text(dir / "gnuplot.err"));
    CHECK(read_text(printed) == clean_utf8(strings[k]) + "\n");
    CHECK_FALSE(fs::exists(mark));
  }
}

TEST_CASE("literal: quotes doubled, newlines spliced in as a constant") {
  CHECK(plot::literal("it's") == "'it''s'");
  CHECK(plot::literal("a\nb") == "'a'.\"\\n\".'b'");
  CHECK(plot::literal("`x`") == "'`x`'");
}

TEST_CASE("a datablock holds numbers only: text (an EOD line) is refused") {
  plot::GnuplotScript script;
  CHECK(script.data("ok_1", "1 2.5e-3\nNaN -inf\n") == "$ok_1");
  CHECK_THROWS_AS(script.data("x", "1 2\nEOD\nsystem('touch m')\n"), Error);
  CHECK_THROWS_AS(script.data("x y", "1 2\n"), Error);
}

TEST_CASE("plot and report of a run whose names are injections: no command runs, report.md shows plain text") {
  TempRoot root("dpareto-hostile-run-");
  const auto dir = root.dir("r");
  const std::string mark = (dir / "MARK").string();
  const auto strings = injections(mark);
  auto info = plot::test::svt_like_info("dpareto", 1);
  info.problem = strings[0] + "<img src=x onerror=alert(1)>";
  info.parameter_names = {strings[1] + "![t](http://tracker.example/p.png)", strings[6] + "|cell|"};
  {
    study::RunDirectoryWriter writer((dir / "run").string(), info);
    for (int id = 1; id <= 12; ++id) {
      study::EvaluationRecord r;
      r.id = id;
      r.phase = id <= 8 ? "init" : strings[2] + "<script>x</script>";
      r.params = {static_cast<double>(id), 0.1 * id};
      r.status = study::EvaluationStatus::ok;
      r.epsilon = 0.1 * id;
      r.utility = 0.5 + 0.03 * id;
      r.utility_min = r.utility - 0.01;
      r.utility_max = r.utility + 0.01;
      r.seconds = 0.01;
      writer.add(r);
    }
  }
  const auto run_dir = (dir / "run").string();
  for (const char* figure : {"front", "hv"}) {
    const auto plotted = run_cli(std::string("plot ") + figure + " '" + run_dir + "' --out '" +
                                 (dir / (std::string(figure) + ".png")).string() + "'");
    REQUIRE_MESSAGE(plotted.status == 0, plotted.output);
  }
  const auto report = run_cli("report '" + run_dir + "'");
  REQUIRE_MESSAGE(report.status == 0, report.output);
  CHECK_FALSE(fs::exists(mark));
  const std::string md = read_text(dir / "run" / "report" / "report.md");
  for (const std::string raw : {"<img", "<script>", "](http", "![t]", "|cell|"}) {
    INFO(raw << " in " << md);
    CHECK(md.find(raw) == std::string::npos);
  }
  for (std::size_t at = md.find('`'); at != std::string::npos; at = md.find('`', at + 1))
    CHECK(md[at - 1] == '\\');  // no code span
  CHECK(md.find("&lt;img src=x onerror=alert\\(1\\)&gt;") != std::string::npos);
  CHECK(md.find("\\`touch") != std::string::npos);
}

TEST_CASE("figures and report.md replace a symlink at their path; a symlinked report/ is refused") {
  TempRoot root("dpareto-symlink-out-");
  const auto dir = root.dir("s");
  plot::test::write_synthetic_run((dir / "run").string(), "dpareto", 1, 16);
  write_file_atomically(dir / "victim", "precious\n");
  fs::create_directories(dir / "run" / "report");
  for (const char* name : {"front.png", "report.md"}) fs::create_symlink(dir / "victim", dir / "run" / "report" / name);
  fs::create_symlink(dir / "victim", dir / "link.png");
  REQUIRE(run_cli("plot front '" + (dir / "run").string() + "' --out '" + (dir / "link.png").string() + "'").status ==
          0);
  REQUIRE(run_cli("report '" + (dir / "run").string() + "'").status == 0);
  CHECK(read_text(dir / "victim") == "precious\n");
  CHECK_FALSE(fs::is_symlink(dir / "link.png"));
  CHECK_FALSE(fs::is_symlink(dir / "run" / "report" / "front.png"));
  CHECK(read_text(dir / "run" / "report" / "report.md").find("# dpareto report") == 0);

  // A run directory whose report/ points elsewhere: refused unless --out says where.
  fs::create_directories(dir / "elsewhere");
  fs::remove_all(dir / "run" / "report");
  fs::create_directory_symlink(dir / "elsewhere", dir / "run" / "report");
  const auto refused = run_cli("report '" + (dir / "run").string() + "'");
  CHECK(refused.status == 2);
  CHECK(refused.output.find("report: is a symbolic link; pass --out") != std::string::npos);
  CHECK(fs::is_empty(dir / "elsewhere"));
}

TEST_CASE("write_file_atomically: a symlink at the path is replaced, its target untouched") {
  TempRoot root("dpareto-atomic-");
  const auto dir = root.dir("a");
  write_file_atomically(dir / "victim", "precious");
  fs::create_symlink(dir / "victim", dir / "out.json");
  write_file_atomically(dir / "out.json", "new");
  CHECK(read_text(dir / "victim") == "precious");
  CHECK(read_text(dir / "out.json") == "new");
  CHECK_FALSE(fs::is_symlink(dir / "out.json"));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  CHECK(files == 2);  // no temporary left behind
  // A device named directly is written in place, never renamed over (we may run as root).
  write_file_atomically("/dev/null", "discarded");
  CHECK(fs::is_character_file("/dev/null"));
  CHECK_THROWS_WITH_AS(write_file_atomically("/dev/full", "x"), doctest::Contains("cannot write /dev/full"),
                       InputError);
  CHECK(fs::is_character_file("/dev/full"));
}
