// What a TILE image must look like beyond the common checks, and the image relocated for one partition.
#include <elf.h>
#include <tile/boot_block.h>

#include <stdexcept>

#include "core/common.hpp"
#include "tile.hpp"

namespace oshrun {

namespace {

// R_TILEGX_RELATIVE and R_TILEPRO_RELATIVE set a pointer-sized field to the image's load address plus the addend:
// the one thing a PIE linked at 0 needs relocating for. ld 2.40 also leaves word-sized relocations against the
// image's own symbols (takes_symbol below), which come to the same: the symbol's address in the partition.
const TileVariant kTileGx{EM_TILEGX, R_TILEGX_RELATIVE, "R_TILEGX_RELATIVE", 8, 64ull << 30};
const TileVariant kTilePro{EM_TILEPRO, R_TILEPRO_RELATIVE, "R_TILEPRO_RELATIVE", 4, 4ull << 30};
// The "none" relocation of both: nothing to do. ld may leave such entries in .rela.dyn (room it reserved and then
// did not need); they are skipped, neither refused nor counted as applied.
constexpr unsigned kRelocNone = 0;
static_assert(R_TILEGX_NONE == kRelocNone && R_TILEPRO_NONE == kRelocNone, "both NONEs are 0");

[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw Failure(path + ": " + what); }

std::string span(uint64_t lo, uint64_t hi) { return hex(lo) + ".." + hex(hi); }

// The names of the types oshrun applies and of those a wrongly linked image is likely to have (a dynamically
// linked program, thread-local storage), for the messages that refuse them.
std::string type_text(const TileVariant& v, unsigned type) {
    const char* name = nullptr;
    if (v.machine == EM_TILEGX) {
        switch (type) {
        case R_TILEGX_RELATIVE: name = "R_TILEGX_RELATIVE"; break;
        case R_TILEGX_64: name = "R_TILEGX_64"; break;
        case R_TILEGX_32: name = "R_TILEGX_32"; break;
        case R_TILEGX_COPY: name = "R_TILEGX_COPY"; break;
        case R_TILEGX_GLOB_DAT: name = "R_TILEGX_GLOB_DAT"; break;
        case R_TILEGX_JMP_SLOT: name = "R_TILEGX_JMP_SLOT"; break;
        case R_TILEGX_TLS_DTPMOD64: name = "R_TILEGX_TLS_DTPMOD64"; break;
        case R_TILEGX_TLS_TPOFF64: name = "R_TILEGX_TLS_TPOFF64"; break;
        }
    } else {
        switch (type) {
        case R_TILEPRO_RELATIVE: name = "R_TILEPRO_RELATIVE"; break;
        case R_TILEPRO_32: name = "R_TILEPRO_32"; break;
        case R_TILEPRO_COPY: name = "R_TILEPRO_COPY"; break;
        case R_TILEPRO_GLOB_DAT: name = "R_TILEPRO_GLOB_DAT"; break;
        case R_TILEPRO_JMP_SLOT: name = "R_TILEPRO_JMP_SLOT"; break;
        case R_TILEPRO_TLS_DTPMOD32: name = "R_TILEPRO_TLS_DTPMOD32"; break;
        case R_TILEPRO_TLS_TPOFF32: name = "R_TILEPRO_TLS_TPOFF32"; break;
        }
    }
    return std::to_string(type) + (name ? std::string(" (") + name + ")" : "");
}

// Whether [offset, offset + size) lies inside the file bytes of one PT_LOAD segment: the bytes Image::flat holds
// and the loader writes, so that a relocated value can neither land in .bss (zeros the image does not carry) nor
// outside the image.
bool in_file_bytes(const Image& img, uint64_t offset, uint64_t size) {
    for (const Segment& s : img.segments)
        if (offset >= s.vaddr && offset - s.vaddr <= s.filesz && s.filesz - (offset - s.vaddr) >= size) return true;
    return false;
}

// The word-sized relocations that name a symbol: a GOT entry (GLOB_DAT), a PLT slot (JMP_SLOT), a pointer in data.
bool takes_symbol(const TileVariant& v, unsigned type) {
    if (v.machine == EM_TILEGX) return type == R_TILEGX_GLOB_DAT || type == R_TILEGX_JMP_SLOT || type == R_TILEGX_64;
    return type == R_TILEPRO_GLOB_DAT || type == R_TILEPRO_JMP_SLOT || type == R_TILEPRO_32;
}

}  // namespace

const TileVariant& tile_variant(const Target& t) {
    if (t.elf_machine == EM_TILEGX) return kTileGx;
    if (t.elf_machine == EM_TILEPRO) return kTilePro;
    throw std::logic_error(std::string("tile_variant: ") + t.name + " is not a TILE target");
}

void check_tile_image(const Target& t, Image& img) {
    const TileVariant& v = tile_variant(t);
    check_partitioned_image(t, img);
    // The startup code writes SHMEM_TILE_STACK_GUARD at the stack's lowest 8 bytes, partition top - stack_size: an
    // aligned word only if the stack size is a multiple of 8 (the top, a partition's end, is aligned to far more).
    if (img.stack_size % 8 != 0)
        refuse(img.path, "its stack (__stack_size = " + std::to_string(img.stack_size) + " bytes) is not a multiple of "
                         "8; the guard word at the bottom of a " + t.name + " PE's stack must be aligned");
    const std::string link = "link with add_shmem_executable/oshcc (a static PIE: relative relocations, and GOT "
                             "entries of symbols it defines)";
    for (const Relocation& r : img.relocations) {
        const std::string where = " at offset " + hex(r.offset) + " (" + img.relocation_sections.at(r.section) + ")";
        if (r.type == kRelocNone) continue;
        if (r.type == v.relative_type) {
            if (r.sym != 0)
                refuse(img.path, std::string(v.relative_name) + " relocation" + where + " names symbol " +
                                     std::to_string(r.sym) + "; a relative relocation names none: " + link);
        } else if (takes_symbol(v, r.type)) {
            // ld 2.40's TILE back ends leave GOT entries of the image's own global symbols (the linker script's
            // __init_array_start, a program's extern data) as GLOB_DAT against .dynsym instead of turning them
            // into RELATIVE: the value is the symbol's address in this partition, which the image knows.
            if (r.sym == 0)  // STN_UNDEF: no symbol at all, so no name to give
                refuse(img.path, "relocation type " + type_text(v, r.type) + where + " names no symbol (index 0); " +
                                     "oshrun applies it only against a symbol the image defines (or an undefined " +
                                     "weak one): " + link);
            if (!r.sym_defined && !r.sym_weak)
                refuse(img.path, "relocation type " + type_text(v, r.type) + where + " names " + r.sym_name +
                                     ", which the image does not define (a TILE image is linked whole, with no "
                                     "shared libraries); " + link);
        } else {
            refuse(img.path, "relocation type " + type_text(v, r.type) + where + ": oshrun applies only " +
                                 v.relative_name + " (" + std::to_string(v.relative_type) + ") relocations and " +
                                 "word-sized ones of symbols the image defines; " + link);
        }
        if (!in_file_bytes(img, r.offset, v.field_bytes))
            refuse(img.path, "relocation type " + type_text(v, r.type) + where + ": its " +
                                 std::to_string(v.field_bytes) + "-byte field " +
                                 span(r.offset, r.offset + v.field_bytes) +
                                 " is not inside the file bytes of a PT_LOAD segment (the image's bytes " +
                                 span(img.link_base, img.file_end) + ", .bss excluded); " + link);
    }
}

std::vector<uint8_t> relocate_tile_image(const Target& t, const Image& img, uint64_t load_address) {
    const TileVariant& v = tile_variant(t);
    std::vector<uint8_t> bytes = img.flat;
    for (const Relocation& r : img.relocations) {
        if (r.type == kRelocNone) continue;
        // check_tile_image let through RELATIVE ones and word-sized ones of defined (or undefined weak) symbols,
        // their fields inside flat (link_base is 0). An undefined weak symbol is 0 wherever the image is; an
        // absolute one (SHN_ABS: __stack_size, a --defsym) is its value wherever the image is (the gABI's rule,
        // and glibc's): only a symbol of one of the image's sections moves with it.
        uint64_t value = uint64_t(r.addend);  // modulo 2^64, then cut to the field
        if (r.type == v.relative_type)
            value += load_address;
        else if (r.sym_defined)
            value += r.sym_value + (r.sym_absolute ? 0 : load_address);
        for (unsigned i = 0; i < v.field_bytes; ++i) bytes.at(r.offset - img.link_base + i) = uint8_t(value >> (8 * i));
    }
    return bytes;
}

}  // namespace oshrun
