#include "arguments.hpp"

#include "errors.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace recur::cli {

namespace {

const OptionSpec* find(const CommandSpec& command, const std::string& name) {
  for (const OptionSpec& option : command.options)
    if (name == option.name) return &option;
  return nullptr;
}

std::string see_help(const CommandSpec& command) {
  return std::string(" (see recur ") + command.name + " --help)";
}

}  // namespace

Arguments::Arguments(const CommandSpec& command, int argc, char** argv, int first)
    : command_(command) {
  for (int i = first; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--kokkos-", 0) == 0) continue;  // Kokkos' own
    if (argument.size() < 3 || argument.compare(0, 2, "--") != 0)
      throw UsageError("unexpected argument '" + argument + "'; options start with --" +
                       see_help(command));
    const std::size_t equals = argument.find('=');
    const std::string name   = argument.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const OptionSpec* option = find(command, name);
    if (option == nullptr)
      throw UsageError("unknown option --" + name + " for recur " + command.name + see_help(command));
    if (values_.count(name) > 0) throw UsageError("--" + name + " is given twice");
    if (option->value == nullptr) {
      if (equals != std::string::npos)
        throw UsageError("--" + name + " takes no value" + see_help(command));
      values_[name] = "";
    } else if (equals != std::string::npos) {
      values_[name] = argument.substr(equals + 1);
    } else {
      if (i + 1 >= argc)
        throw UsageError("--" + name + " needs a value: --" + name + " " + option->value);
      values_[name] = argv[++i];
    }
  }
}

std::optional<std::string> Arguments::value(const char* name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) return std::nullopt;
  return found->second;
}

std::string Arguments::required(const char* name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) {
    const OptionSpec* option = find(command_, name);
    throw UsageError(std::string("missing --") + name + " " + (option ? option->value : "") +
                     see_help(command_));
  }
  return found->second;
}

std::string help_text(const CommandSpec& command) {
  std::ostringstream out;
  out << "usage: recur " << command.usage << "\n\n" << command.summary << "\n";
  if (!command.options.empty()) out << "\noptions:\n";
  for (const OptionSpec& option : command.options) {
    std::string left = std::string("  --") + option.name;
    if (option.value) left += std::string(" ") + option.value;
    out << left;
    if (left.size() < 24)
      out << std::string(24 - left.size(), ' ');
    else
      out << "\n" << std::string(24, ' ');
    // Continuation lines of the help text are indented under its start.
    for (const char* c = option.help; *c; ++c) {
      out << *c;
      if (*c == '\n') out << std::string(24, ' ');
    }
    out << "\n";
  }
  if (command.epilogue && *command.epilogue) out << "\n" << command.epilogue;
  return out.str();
}

long long parse_integer(const char* option, const std::string& text, long long minimum,
                        long long maximum, const char* what) {
  const std::string range = std::string(what) + " must be a whole number from " +
                            std::to_string(minimum) + " to " + std::to_string(maximum);
  char* end = nullptr;
  errno     = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  const bool whole = !text.empty() && end != nullptr && *end == '\0' && !std::isspace((unsigned char)text[0]);
  if (!whole) throw UsageError(std::string("--") + option + " " + text + ": " + range);
  if (errno == ERANGE || value < minimum || value > maximum)
    throw UsageError(std::string("--") + option + " " + text + ": " + range);
  return value;
}

double parse_real(const char* option, const std::string& text) {
  char* end = nullptr;
  errno     = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || std::isspace((unsigned char)text[0]) ||
      (errno == ERANGE && std::isinf(value)))
    throw UsageError(std::string("--") + option + " " + text + ": expected a real number");
  return value;
}

std::string parse_choice(const Arguments& arguments, const char* option,
                         std::initializer_list<const char*> choices, const char* fallback) {
  const std::optional<std::string> value = arguments.value(option);
  if (!value) return fallback;
  std::string list;
  for (const char* choice : choices) {
    if (*value == choice) return *value;
    list += list.empty() ? "" : ", ";
    list += choice;
  }
  throw UsageError(std::string("--") + option + " " + *value + ": expected one of " + list);
}

}  // namespace recur::cli
