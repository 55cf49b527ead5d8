#pragma once
// One libpq connection to a study database, as the PostgreSQL study back-end uses it: statements
// with text parameters, errors that name the database (never its password), and transparent
// reconnection with backoff when the server goes away (a restart, a network cut).
#include <libpq-fe.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpareto/core/error.hpp"

namespace dpareto::study::pg {

// The connection broke (server restart, network): the work may be retried on a new connection.
class ConnectionLost : public Error {
 public:
  using Error::Error;
};

class Result {
 public:
  explicit Result(PGresult* result) : result_(result, &PQclear) {}
  int rows() const { return PQntuples(result_.get()); }
  bool is_null(int row, int column) const { return PQgetisnull(result_.get(), row, column) != 0; }
  std::string text(int row, int column) const { return PQgetvalue(result_.get(), row, column); }
  // A number column (double precision, integer); NaN when NULL.
  double number(int row, int column) const;

 private:
  std::unique_ptr<PGresult, decltype(&PQclear)> result_;
};

using Parameter = std::optional<std::string>;  // text, or NULL

class Connection {
 public:
  // Connects to `uri` (InputError naming `shown` when it cannot: malformed URI, unreachable host
  // within the connect timeout, authentication refused). `reconnect_seconds`: how long `retrying`
  // keeps trying to reach a server that went away.
  Connection(std::string uri, std::string shown, double reconnect_seconds);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // One statement; ConnectionLost when the connection broke, Error naming the database otherwise.
  Result exec(const std::string& sql, const std::vector<Parameter>& parameters = {});
  // Several statements without parameters (a schema).
  void exec_script(const std::string& sql);
  // Runs `work` until it completes: when the connection breaks, reconnects with exponential backoff
  // for up to reconnect_seconds (then Error), calls `on_reconnect`, and runs `work` again; so `work`
  // must be idempotent, or find out that a previous try committed.
  void retrying(const std::function<void()>& work);
  // One attempt to reconnect a broken connection; false when the server is still unreachable.
  bool try_reconnect();
  void set_on_reconnect(std::function<void()> callback) { on_reconnect_ = std::move(callback); }
  const std::string& shown() const { return shown_; }

 private:
  Result checked(PGresult* result);
  std::string uri_, shown_;
  double reconnect_seconds_;
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn_;
  std::function<void()> on_reconnect_;
};

// BEGIN ... COMMIT, rolled back when left by an exception on a live connection.
class Transaction {
 public:
  explicit Transaction(Connection& connection) : connection_(connection) { connection_.exec("BEGIN"); }
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    connection_.exec("COMMIT");
    committed_ = true;
  }

 private:
  Connection& connection_;
  bool committed_ = false;
};

}  // namespace dpareto::study::pg
