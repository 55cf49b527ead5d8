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

#include "dpareto/core/error.hpp"
#include "dpareto/core/json_number.hpp"
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
    if (located.empty() && line.rfind("\"", 0) == 0 && line.find(" line ") != std::string::npos) located = line;
  }
  return located.empty() ? last : located;
}

struct Running {
  pid_t pid;
  fs::path directory;
  std::string output;
};

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
  const fs::path script_path = directory / "figure.gp";
  const std::string body = terminal_header(format, canvas, output) + script.text() + "unset output\n";
  {
    std::ofstream out(script_path);
    out << body;
    if (!out) throw Error("cannot write " + script_path.string());
  }
  if (keep_script) {
    std::ofstream kept(output + ".gp");
    kept << body;
  }
  const std::string err_path = (directory / "stderr.txt").string();
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  std::string arg0 = gnuplot, arg1 = script_path.string();
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = 0;
  const int rc = null_fd < 0 || err_fd < 0 ? errno : start_process(argv, environ, null_fd, err_fd, pid);
  if (null_fd >= 0) ::close(null_fd);
  if (err_fd >= 0) ::close(err_fd);
  if (rc != 0) {
    fs::remove_all(directory);
    throw DependencyError("cannot run " + gnuplot + ": " + std::strerror(rc));
  }
  return {pid, directory, output};
}

// Waits for one gnuplot process; returns the error message ("" on success) and cleans up.
std::string finish(const Running& job) {
  int status = 0;
  reap(job.pid, status, true);
  std::string message;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ifstream err(job.directory / "stderr.txt");
    std::stringstream text;
    text << err.rdbuf();
    message = "gnuplot failed on " + job.output + ": " + gnuplot_error_line(text.str());
  } else {
    // gnuplot exits 0 even when it could not write its output (a full disk): success means a
    // non-empty file.
    std::error_code ec;
    const auto size = fs::file_size(job.output, ec);
    if (ec || size == 0)
      message =
          "gnuplot wrote no figure to " + job.output + (ec ? " (" + ec.message() + ")" : " (empty file: disk full?)");
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
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
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
