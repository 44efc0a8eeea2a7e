#include "datagen/data_writer.h"

namespace tessera::datagen {

bool DataWriter::open(const std::string& path, bool append, DataFormat format, std::string& error) {
  format_ = format;
  games_ = positions_ = 0;
  return format_ == DataFormat::Chains ? chains_.open(path, append, error)
                                       : records_.open(path, append, error);
}

bool DataWriter::write(const GameChain& chain, std::span<const TrainingRecord> records) {
  if (records.empty()) return true;
  if (format_ == DataFormat::Records) {
    for (const TrainingRecord& r : records) records_.write(r);
    if (!records_.flush()) return false;
  } else if (!chains_.write(chain)) {
    return false;
  }
  ++games_;
  positions_ += records.size();
  return true;
}

bool DataWriter::close() {
  return format_ == DataFormat::Chains ? chains_.close() : records_.close();
}

const std::string& DataWriter::error() const {
  return format_ == DataFormat::Chains ? chains_.error() : records_.error();
}

}  // namespace tessera::datagen
