#ifndef RECUR_CLI_INPUT_HPP
#define RECUR_CLI_INPUT_HPP

#include <recur/npy.hpp>

#include <string>

namespace recur::cli {

/// The x values of a .npy file (recognized by its magic string, or its
/// .npy suffix) or of a text file with one number per line (float64; blank
/// lines and lines starting with '#' are skipped), entries part_of(length)
/// of them (npy::PartOf): of a .npy file only those entries are read, a text
/// file is read whole. Throws npy::Error.
npy::VectorPart read_x_part(const std::string& path, const npy::PartOf& part_of);

}  // namespace recur::cli

#endif
