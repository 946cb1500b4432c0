#ifndef RECUR_CLI_ARGUMENTS_HPP
#define RECUR_CLI_ARGUMENTS_HPP

// Options of the form --name value, --name=value and --flag; anything that
// starts with --kokkos- is left to Kokkos.

#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace recur::cli {

struct OptionSpec {
  const char* name;   ///< without the leading "--"
  const char* value;  ///< the value's placeholder ("N", "PATH"); nullptr for a flag
  const char* help;
};

struct CommandSpec {
  const char* name;     ///< "eval"
  const char* usage;    ///< the synopsis after "recur "
  const char* summary;  ///< one paragraph
  std::vector<OptionSpec> options;
  const char* epilogue;  ///< after the options (may be empty)
};

class Arguments {
 public:
  /// Parses argv[first..argc) against `command`; throws UsageError.
  Arguments(const CommandSpec& command, int argc, char** argv, int first);

  bool has(const char* name) const { return values_.count(name) > 0; }
  std::optional<std::string> value(const char* name) const;
  /// The value of a required option; throws UsageError when it is missing.
  std::string required(const char* name) const;

 private:
  const CommandSpec& command_;
  std::map<std::string, std::string> values_;
};

/// The --help text of a command.
std::string help_text(const CommandSpec& command);

/// A whole number in [minimum, maximum] given to --option; throws UsageError
/// that says what is allowed.
long long parse_integer(const char* option, const std::string& text, long long minimum,
                        long long maximum, const char* what);

/// The value of --option, which must be one of `choices`; `fallback` when
/// the option is not given. Throws UsageError listing the choices.
std::string parse_choice(const Arguments& arguments, const char* option,
                         std::initializer_list<const char*> choices, const char* fallback);

/// A real number given to --option (nan and inf are passed on).
double parse_real(const char* option, const std::string& text);

}  // namespace recur::cli

#endif
