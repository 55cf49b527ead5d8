#include "pg_connection.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <thread>

#include "dpareto/core/printable.hpp"
#include "dpareto/study/storage_registry.hpp"

namespace dpareto::study::pg {
namespace {

using Clock = std::chrono::steady_clock;

// Seconds a connection attempt may take before it fails (libpq's connect_timeout), unless the URI
// or PGCONNECT_TIMEOUT says otherwise.
constexpr const char* kConnectTimeout = "10";

// libpq's message, first line only, with the password (if the URI holds one) blanked out.
std::string message_of(const std::string& text, const std::string& uri) {
  std::string line = text.substr(0, text.find('\n'));
  const std::string shown = shown_location(uri);
  if (shown != uri) {  // the URI held a password: never let it through, whatever libpq said
    const auto at = uri.find('@');
    const auto colon = uri.find(':', uri.find("://") + 3);
    if (at != std::string::npos && colon < at) {
      const std::string password = uri.substr(colon + 1, at - colon - 1);
      for (auto p = line.find(password); !password.empty() && p != std::string::npos; p = line.find(password))
        line.replace(p, password.size(), "***");
    }
  }
  return printable(line);
}

PGconn* connect(const std::string& uri) {
  const bool timeout_set = std::getenv("PGCONNECT_TIMEOUT") != nullptr;
  // Keywords are applied in order: the URI (expanded from dbname) overrides the timeout default.
  const char* keywords[] = {"connect_timeout", "application_name", "dbname", nullptr};
  const char* values[] = {timeout_set ? nullptr : kConnectTimeout, "dpareto", uri.c_str(), nullptr};
  return PQconnectdbParams(timeout_set ? keywords + 1 : keywords, timeout_set ? values + 1 : values, 1);
}

bool connection_error(const char* sqlstate) {
  // Class 08: connection exception; 57P01-57P03: the server is shutting down or starting.
  const std::string state = sqlstate ? sqlstate : "";
  return state.starts_with("08") || state == "57P01" || state == "57P02" || state == "57P03";
}

}  // namespace

double Result::number(int row, int column) const {
  if (is_null(row, column)) return std::numeric_limits<double>::quiet_NaN();
  const std::string v = text(row, column);
  if (v == "Infinity") return std::numeric_limits<double>::infinity();
  if (v == "-Infinity") return -std::numeric_limits<double>::infinity();
  if (v == "NaN") return std::numeric_limits<double>::quiet_NaN();
  return std::strtod(v.c_str(), nullptr);
}

Connection::Connection(std::string uri, std::string shown, double reconnect_seconds)
    : uri_(std::move(uri)),
      shown_(std::move(shown)),
      reconnect_seconds_(reconnect_seconds),
      conn_(connect(uri_), &PQfinish) {
  if (!conn_) throw InputError("study " + shown_ + ": cannot connect (out of memory)");
  if (PQstatus(conn_.get()) != CONNECTION_OK)
    throw InputError("study " + shown_ + ": cannot connect (" + message_of(PQerrorMessage(conn_.get()), uri_) + ")");
  // The server's notices ("terminating connection due to ... shutdown") are handled as errors where
  // they matter; they are not printed.
  PQsetNoticeProcessor(
      conn_.get(), [](void*, const char*) {}, nullptr);
  exec("SET client_min_messages = warning");
}

Result Connection::exec(const std::string& sql, const std::vector<Parameter>& parameters) {
  std::vector<const char*> values;
  for (const auto& p : parameters) values.push_back(p ? p->c_str() : nullptr);
  return checked(PQexecParams(conn_.get(), sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                              nullptr, nullptr, 0));
}

void Connection::exec_script(const std::string& sql) {
  checked(PQexec(conn_.get(), sql.c_str()));
}

Result Connection::checked(PGresult* raw) {
  Result result(raw);
  const auto status = PQresultStatus(raw);  // a null result (out of memory, no connection) is a fatal error
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
  const std::string message = message_of(raw ? PQresultErrorMessage(raw) : PQerrorMessage(conn_.get()), uri_);
  const char* state = raw ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
  if (PQstatus(conn_.get()) != CONNECTION_OK || connection_error(state))
    throw ConnectionLost("study " + shown_ + ": lost the connection (" + message + ")");
  throw Error("study " + shown_ + ": " + message);
}

bool Connection::try_reconnect() {
  PQreset(conn_.get());
  return PQstatus(conn_.get()) == CONNECTION_OK;
}

void Connection::retrying(const std::function<void()>& work) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(reconnect_seconds_);
  double backoff = 0.1;
  bool reconnected = false;
  while (true) {
    try {
      if (reconnected) {
        exec("SET client_min_messages = warning");
        if (on_reconnect_) on_reconnect_();
      }
      work();
      return;
    } catch (const ConnectionLost& lost) {
      do {
        if (Clock::now() >= deadline)
          throw Error(std::string(lost.what()) + "; gave up after --reconnect-timeout " +
                      std::to_string(static_cast<long>(reconnect_seconds_)) + " s");
        std::this_thread::sleep_for(std::chrono::duration<double>(backoff));
        backoff = std::min(backoff * 2, 5.0);
      } while (!try_reconnect());
      reconnected = true;
    }
  }
}

Transaction::~Transaction() {
  if (committed_) return;
  try {
    connection_.exec("ROLLBACK");
  } catch (const Error&) {  // a broken connection: the server rolled back already
  }
}

}  // namespace dpareto::study::pg
