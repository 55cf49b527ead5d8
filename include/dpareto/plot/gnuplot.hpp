#pragma once
// The plotting backend: a gnuplot script (data as inline datablocks, so one file is the whole
// figure) rendered headless by the `gnuplot` program with the cairo terminals. The output format
// follows the file extension: .png (pngcairo), .svg (svg), .pdf (pdfcairo).
#include <string>
#include <vector>

namespace dpareto::plot {

enum class Format { png, svg, pdf };

// The format of an output path by its extension; InputError naming the path otherwise.
Format format_from_path(const std::string& path);

// Figure size in pixels (PDF: 100 px per inch). Fonts scale with the height.
struct Canvas {
  int width = 1200;
  int height = 800;
};

class GnuplotScript {
 public:
  // Adds the datablock `$name` holding `rows` (whitespace-separated columns, one row per line,
  // blank lines separating scans/blocks) and returns its reference "$name". Rows hold numbers
  // only (NaN, inf included); anything else is an internal Error, never script text.
  std::string data(const std::string& name, const std::string& rows);
  // Appends one gnuplot command (or several lines).
  void command(const std::string& text);
  // The script body: datablocks first, then the commands (no terminal/output lines).
  std::string text() const;

 private:
  std::string data_;
  std::string commands_;
};

// The one way text reaches a gnuplot script: a string constant (single-quoted; valid UTF-8, control
// characters but newlines made spaces) that gnuplot never expands, for titles, labels and colours.
// Text drawn in enhanced mode must also be marked noenhanced where it comes from a file.
std::string literal(const std::string& text);
// A number as gnuplot reads it (shortest round-trip; "NaN" for non-finite values so gnuplot
// skips the point).
std::string number(double value);

// Writes the terminal and output header plus the script to a temporary file and runs gnuplot on
// it. Throws DependencyError when gnuplot is not installed, Error with gnuplot's first error line
// when it fails. With `keep_script` the script is also kept as `<output>.gp`.
void render(const GnuplotScript& script, const std::string& output_path, const Canvas& canvas,
            bool keep_script = false);

// Renders several figures concurrently (one gnuplot process each, at most `jobs` at a time).
struct RenderJob {
  GnuplotScript script;
  std::string output_path;
};
void render_all(const std::vector<RenderJob>& jobs, const Canvas& canvas, bool keep_scripts = false, int parallel = 4);

// The path of the gnuplot executable (PATH lookup, or $DPARETO_GNUPLOT); DependencyError
// "gnuplot not found: install the Debian package gnuplot-nox (scripts/setup does)" otherwise.
std::string gnuplot_executable();

}  // namespace dpareto::plot
