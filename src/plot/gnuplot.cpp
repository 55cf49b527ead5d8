#include "dpareto/plot/gnuplot.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dpareto/core/atomic_file.hpp"
#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
#include "dpareto/core/printable.hpp"
#include "dpareto/core/subprocess.hpp"

extern char** environ;

namespace dpareto::plot {
namespace fs = std::filesystem;

namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

bool executable(const fs::path& p) {
  return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p);
}

// The terminal line for a format. Fonts and line widths scale with the canvas height so that a
// larger figure is a sharper figure, not one with tinier text.
std::string terminal_header(Format format, const Canvas& canvas, const std::string& output) {
  const double scale = std::max(0.5, canvas.height / 800.0);
  const int font = static_cast<int>(std::lround(13 * scale));
  std::ostringstream out;
  out << "set encoding utf8\n";
  const std::string font_spec = "font \"DejaVu Sans," + std::to_string(font) + "\"";
  switch (format) {
    case Format::png:
      out << "set terminal pngcairo size " << canvas.width << "," << canvas.height << " enhanced truecolor "
          << font_spec << " linewidth " << number(1.2 * scale) << " background rgb \"white\"\n";
      break;
    case Format::svg:
      out << "set terminal svg size " << canvas.width << "," << canvas.height << " dynamic enhanced " << font_spec
          << " linewidth " << number(1.2 * scale) << " background rgb \"white\"\n";
      break;
    case Format::pdf:
      out << "set terminal pdfcairo size " << number(canvas.width / 100.0) << "in," << number(canvas.height / 100.0)
          << "in enhanced " << font_spec << " linewidth " << number(1.2 * scale) << "\n";
      break;
  }
  out << "set output " << literal(output) << "\n";
  return out.str();
}

// The most useful line of gnuplot's error output: `"file" line N: message`, else the last line.
std::string gnuplot_error_line(const std::string& stderr_text) {
  std::istringstream in(stderr_text);
  std::string line, last, located;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t^") == std::string::npos) continue;
    last = line;
    if (located.empty() && line.starts_with("\"") && line.find(" line ") != std::string::npos) located = line;
  }
  return located.empty() ? last : located;
}

struct Running {
  pid_t pid;
  fs::path directory;  // gnuplot's private working directory: script, stderr and the figure
  std::string figure;  // the figure's name inside it
  std::string output;  // where the figure goes once gnuplot succeeded
};

// gnuplot runs without a shell, skips every init file (-d), works in a fresh private directory
// and writes the figure there under a fixed name; dpareto then moves it into place itself, so a
// run directory's symlinks (report/front.png -> ~/.bashrc) are replaced, never followed.
Running start(const std::string& gnuplot, const GnuplotScript& script, const std::string& output, const Canvas& canvas,
              bool keep_script) {
  const Format format = format_from_path(output);
  const fs::path parent = fs::absolute(output).parent_path();
  if (!fs::is_directory(parent))
    throw InputError("output " + output + ": directory " + parent.string() + " does not exist");
  std::string pattern = (fs::temp_directory_path() / "dpareto-plot-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error("cannot create a temporary directory under " + fs::temp_directory_path().string());
  const fs::path directory(pattern);
  const std::string figure = "figure" + lower_extension(output);
  const fs::path script_path = directory / "figure.gp";
  const std::string body = script.text() + "unset output\n";
  try {
    write_file_atomically(script_path, terminal_header(format, canvas, figure) + body);
    if (keep_script) write_file_atomically(output + ".gp", terminal_header(format, canvas, output) + body);
  } catch (const Error&) {
    fs::remove_all(directory);
    throw;
  }
  const std::string err_path = (directory / "stderr.txt").string();
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  std::string arg0 = gnuplot, arg1 = "-d", arg2 = "figure.gp";
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), nullptr};
  pid_t pid = 0;
  const int rc =
      null_fd < 0 || err_fd < 0 ? errno : start_process(argv, environ, null_fd, err_fd, pid, directory.c_str());
  if (null_fd >= 0) ::close(null_fd);
  if (err_fd >= 0) ::close(err_fd);
  if (rc != 0) {
    fs::remove_all(directory);
    throw DependencyError("cannot run " + gnuplot + ": " + std::strerror(rc));
  }
  return {pid, directory, figure, output};
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Waits for one gnuplot process, moves its figure into place; returns the error message ("" on
// success) and cleans up.
std::string finish(const Running& job) {
  int status = 0;
  reap(job.pid, status, true);
  std::string message;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    message = "gnuplot failed on " + job.output + ": " + gnuplot_error_line(read_file(job.directory / "stderr.txt"));
  } else {
    // gnuplot exits 0 even when it could not write its output (a full disk): success means a
    // non-empty file.
    const std::string figure = read_file(job.directory / job.figure);
    if (figure.empty()) {
      message = "gnuplot wrote no figure for " + job.output + " (empty file: disk full?)";
    } else {
      try {
        write_file_atomically(job.output, figure);
      } catch (const Error& e) {
        message = e.what();
      }
    }
  }
  std::error_code ignored;
  fs::remove_all(job.directory, ignored);
  return message;
}

}  // namespace

Format format_from_path(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".png") return Format::png;
  if (ext == ".svg") return Format::svg;
  if (ext == ".pdf") return Format::pdf;
  throw InputError("output " + path + ": unknown figure format '" + ext + "' (use .png, .svg or .pdf)");
}

std::string GnuplotScript::data(const std::string& name, const std::string& rows) {
  // A datablock holds numbers only: a text row could end the block ("EOD") and run as commands.
  const auto bad_name =
      std::find_if_not(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
  const auto bad_row = rows.find_first_not_of("0123456789+-.eEinfNa \t\n");
  if (name.empty() || bad_name != name.end() || bad_row != std::string::npos)
    throw Error("internal: datablock $" + printable(name) + " holds text (" +
                printable(rows.substr(bad_row == std::string::npos ? 0 : bad_row, 20)) + ")");
  data_ += "$" + name + " << EOD\n" + rows;
  if (!rows.empty() && rows.back() != '\n') data_ += "\n";
  data_ += "EOD\n";
  return "$" + name;
}

void GnuplotScript::command(const std::string& text) {
  commands_ += text;
  if (text.empty() || text.back() != '\n') commands_ += "\n";
}

std::string GnuplotScript::text() const {
  return data_ + commands_;
}

std::string literal(const std::string& text) {
  // Single quotes: gnuplot expands neither backquotes (`cmd`) nor @macros in them, and knows no
  // escape but '' for a quote. A newline would end the command, so it is spliced in as the
  // constant "\n" by string concatenation.
  std::string out = "'";
  for (const char c : clean_utf8(text)) {
    if (c == '\'')
      out += "''";
    else if (c == '\n')
      out += "'.\"\\n\".'";
    else
      out += c;
  }
  return out + "'";
}

std::string number(double value) {
  return std::isfinite(value) ? format_number(value) : "NaN";
}

std::string gnuplot_executable() {
  if (const char* env = std::getenv("DPARETO_GNUPLOT"); env != nullptr && *env != '\0') {
    if (executable(env)) return env;
    throw DependencyError(std::string("gnuplot not found at $DPARETO_GNUPLOT=") + env +
                          ": install the Debian package gnuplot-nox (scripts/setup does)");
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / "gnuplot";
    if (executable(candidate)) return candidate.string();
  }
  throw DependencyError("gnuplot not found: install the Debian package gnuplot-nox (scripts/setup does)");
}

void render(const GnuplotScript& script, const std::string& output_path, const Canvas& canvas, bool keep_script) {
  render_all({RenderJob{script, output_path}}, canvas, keep_script, 1);
}

void render_all(const std::vector<RenderJob>& jobs, const Canvas& canvas, bool keep_scripts, int parallel) {
  if (canvas.width < 100 || canvas.height < 100 || canvas.width > 20000 || canvas.height > 20000)
    throw InputError("figure size " + std::to_string(canvas.width) + "x" + std::to_string(canvas.height) +
                     " is outside 100..20000 pixels");
  const std::string gnuplot = gnuplot_executable();
  std::vector<Running> running;
  std::string first_error;
  auto reap_one = [&] {
    const std::string message = finish(running.front());
    running.erase(running.begin());
    if (first_error.empty()) first_error = message;
  };
  try {
    for (const auto& job : jobs) {
      while (static_cast<int>(running.size()) >= std::max(1, parallel)) reap_one();
      running.push_back(start(gnuplot, job.script, job.output_path, canvas, keep_scripts));
    }
  } catch (...) {
    while (!running.empty()) reap_one();
    throw;
  }
  while (!running.empty()) reap_one();
  if (!first_error.empty()) throw Error(first_error);
}

}  // namespace dpareto::plot
