#ifndef RECUR_CLI_INPUT_HPP
#define RECUR_CLI_INPUT_HPP

#include <recur/npy.hpp>

#include <string>

namespace recur::cli {

/// The x values of a .npy file (recognized by its magic string, or its
/// .npy suffix) or of a text file with one number per line (float64; blank
/// lines and lines starting with '#' are skipped). Throws npy::Error.
npy::Vector read_x(const std::string& path);

}  // namespace recur::cli

#endif
