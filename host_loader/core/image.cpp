#include "image.hpp"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "common.hpp"
#include "target.hpp"

namespace oshrun {

const char* elf_machine_name(unsigned machine) {
    switch (machine) {
    case EM_NONE: return "none";
    case EM_386: return "Intel 80386";
    case EM_X86_64: return "x86-64";
    case EM_ARM: return "ARM";
    case EM_AARCH64: return "AArch64";
    case EM_RISCV: return "RISC-V";
    case EM_MIPS: return "MIPS";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "S/390";
    case EM_SPARCV9: return "SPARC V9";
    case 258: return "LoongArch";
    case 0x1223: return "Adapteva Epiphany";
    case EM_TILEPRO: return "Tilera TILEPro";
    case EM_TILEGX: return "Tilera TILE-Gx";
    default: return "unknown";
    }
}

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw Failure(path + ": " + what); }

std::string class_name(unsigned c) {
    return c == ELFCLASS32 ? "ELFCLASS32 (32-bit)" : c == ELFCLASS64 ? "ELFCLASS64 (64-bit)" : "invalid (" + std::to_string(c) + ")";
}

std::string data_name(unsigned d) {
    return d == ELFDATA2LSB ? "little-endian (ELFDATA2LSB)" : d == ELFDATA2MSB ? "big-endian (ELFDATA2MSB)"
                                                            : "invalid (" + std::to_string(d) + ")";
}

struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
};
struct ElfCloser {
    void operator()(Elf* e) const { elf_end(e); }
};

// The ELF header translated to host form, without libelf's elf_begin, which rejects a file whose header tables
// lie beyond its end before we could say so.
GElf_Ehdr read_header(int fd, unsigned char elf_class, unsigned char encoding, const std::string& path) {
    unsigned char raw[sizeof(Elf64_Ehdr)];
    const size_t size = elf_class == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    if (pread(fd, raw, size, 0) != ssize_t(size))
        refuse(path, "truncated: shorter than its " + std::to_string(size) + "-byte ELF header");
    GElf_Ehdr h{};
    Elf32_Ehdr h32{};
    const auto data = [](void* buf, size_t n) {
        Elf_Data d{};
        d.d_buf = buf, d.d_type = ELF_T_EHDR, d.d_version = EV_CURRENT, d.d_size = n;
        return d;
    };
    Elf_Data src = data(raw, size);
    if (elf_class == ELFCLASS64) {
        Elf_Data dst = data(&h, sizeof h);  // GElf_Ehdr is Elf64_Ehdr
        if (!elf64_xlatetom(&dst, &src, encoding)) refuse(path, std::string("libelf: ") + elf_errmsg(-1));
    } else {
        Elf_Data dst = data(&h32, sizeof h32);
        if (!elf32_xlatetom(&dst, &src, encoding)) refuse(path, std::string("libelf: ") + elf_errmsg(-1));
        std::memcpy(h.e_ident, h32.e_ident, EI_NIDENT);
        h.e_type = h32.e_type, h.e_machine = h32.e_machine, h.e_version = h32.e_version, h.e_entry = h32.e_entry;
        h.e_phoff = h32.e_phoff, h.e_shoff = h32.e_shoff, h.e_flags = h32.e_flags, h.e_ehsize = h32.e_ehsize;
        h.e_phentsize = h32.e_phentsize, h.e_phnum = h32.e_phnum, h.e_shentsize = h32.e_shentsize;
        h.e_shnum = h32.e_shnum, h.e_shstrndx = h32.e_shstrndx;
    }
    return h;
}

const char* type_name(unsigned type) {
    switch (type) {
    case ET_DYN: return "ET_DYN (position-independent executable)";
    case ET_EXEC: return "ET_EXEC (fixed-address executable)";
    case ET_REL: return "ET_REL (unlinked object file)";
    case ET_CORE: return "ET_CORE (core dump)";
    default: return nullptr;
    }
}

void check_type(const GElf_Ehdr& h, const Target& t, const std::string& path) {
    if (h.e_type == t.elf_type) return;
    const char* hint = t.elf_type == ET_DYN
                           ? "not a position-independent libshmem image; build it with add_shmem_executable"
                           : "not a libshmem image linked for a core's local memory; build it with add_shmem_executable";
    const char* name = type_name(h.e_type);
    const std::string expected = t.elf_type == ET_DYN ? "ET_DYN" : "ET_EXEC";
    refuse(path, "ELF type is " + (name ? std::string(name) : std::to_string(h.e_type)) + ", expected " + expected +
                     ": " + hint);
}

// A table of count entries of entsize bytes at offset must lie inside the file.
void check_table(const char* what, uint64_t offset, uint64_t count, uint64_t entsize, uint64_t file_size,
                 const std::string& path) {
    const unsigned __int128 end = (unsigned __int128)offset + (unsigned __int128)count * entsize;
    if (count != 0 && end > file_size)
        refuse(path, std::string("truncated: its ") + what + " end at byte " + std::to_string(uint64_t(std::min<unsigned __int128>(end, UINT64_MAX))) +
                         " but the file has " + std::to_string(file_size) + " bytes");
}

// The value of symbol name in .symtab, if there is one.
bool find_symbol(Elf* e, const char* name, uint64_t& value) {
    for (Elf_Scn* scn = elf_nextscn(e, nullptr); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
        Elf_Data* data = elf_getdata(scn, nullptr);
        if (!data) continue;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; ++i) {
            GElf_Sym sym;
            if (!gelf_getsym(data, int(i), &sym)) break;
            const char* sym_name = elf_strptr(e, sh.sh_link, sym.st_name);
            if (sym_name && std::strcmp(sym_name, name) == 0) {
                value = sym.st_value;
                return true;
            }
        }
    }
    return false;
}

// The SHF_ALLOC sections with a size, sorted by address. A file without section headers has none.
std::vector<Section> alloc_sections(Elf* e, const std::string& path) {
    std::vector<Section> sections;
    size_t shstrndx = 0;
    if (elf_getshdrstrndx(e, &shstrndx) != 0) return sections;
    for (Elf_Scn* scn = elf_nextscn(e, nullptr); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) refuse(path, std::string("bad section header: ") + elf_errmsg(-1));
        if (!(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0) continue;
        const char* name = elf_strptr(e, shstrndx, sh.sh_name);
        sections.push_back({name ? name : "[" + std::to_string(elf_ndxscn(scn)) + "]", sh.sh_addr, sh.sh_size,
                            sh.sh_type, (sh.sh_flags & SHF_EXECINSTR) != 0});
    }
    std::stable_sort(sections.begin(), sections.end(), [](auto& a, auto& b) { return a.addr < b.addr; });
    return sections;
}

std::string range(uint64_t lo, uint64_t hi) { return "[" + hex(lo) + ", " + hex(hi) + ")"; }

// The dynamic relocations of an image that its loader relocates (Target::loader_relocates): the entries of every
// SHF_ALLOC section of type SHT_RELA (.rela.dyn; .rela.plt should there be one). Relocation sections without
// SHF_ALLOC are the static ones ld --emit-relocs keeps for tools, nothing a loader applies. An allocated SHT_REL
// section (relocations without addends) is refused: the ABIs of such targets (TILE) use RELA. An image stripped of
// its section headers while it has a PT_DYNAMIC segment is refused too: its relocations could not be found, and
// loading it unrelocated would leave every absolute pointer in it pointing near 0.
void read_relocations(Elf* e, Image& img, const Target& t, bool dynamic) {
    const std::string& path = img.path;
    size_t shnum = 0, shstrndx = 0;
    if (elf_getshdrnum(e, &shnum) != 0 || shnum == 0) {
        if (dynamic)
            refuse(path, std::string("has a PT_DYNAMIC segment but no section headers: oshrun finds the relocations "
                                     "it applies in the image's SHT_RELA sections; do not strip its section "
                                     "headers (a ") + t.name + " image is relocated by the loader)");
        return;
    }
    const bool names = elf_getshdrstrndx(e, &shstrndx) == 0;  // without them, sections are named by index
    const size_t entsize = gelf_fsize(e, ELF_T_RELA, 1, EV_CURRENT);
    for (Elf_Scn* scn = elf_nextscn(e, nullptr); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) refuse(path, std::string("bad section header: ") + elf_errmsg(-1));
        if (!(sh.sh_flags & SHF_ALLOC) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL)) continue;
        const char* raw_name = names ? elf_strptr(e, shstrndx, sh.sh_name) : nullptr;
        const std::string name = raw_name ? raw_name : "[" + std::to_string(elf_ndxscn(scn)) + "]";
        if (sh.sh_type == SHT_REL)
            refuse(path, "section " + name + " holds SHT_REL relocations (without addends); a " + t.name +
                             " image's dynamic relocations are SHT_RELA: link it with add_shmem_executable/oshcc");
        if (sh.sh_entsize != entsize)
            refuse(path, "relocation section " + name + " has entries of " + std::to_string(sh.sh_entsize) +
                             " bytes; an " + (entsize == sizeof(Elf32_Rela) ? "Elf32_Rela" : "Elf64_Rela") +
                             " is " + std::to_string(entsize));
        if (sh.sh_size % entsize != 0)
            refuse(path, "relocation section " + name + " is " + std::to_string(sh.sh_size) +
                             " bytes, not a whole number of " + std::to_string(entsize) + "-byte entries");
        if (sh.sh_offset > img.file_size || sh.sh_size > img.file_size - sh.sh_offset)
            refuse(path, "truncated: relocation section " + name + " needs file bytes up to " +
                             std::to_string(uint64_t(std::min<unsigned __int128>(
                                 (unsigned __int128)sh.sh_offset + sh.sh_size, UINT64_MAX))) +
                             " but the file has " + std::to_string(img.file_size) + " bytes");
        Elf_Data* data = elf_getdata(scn, nullptr);
        if (!data && sh.sh_size != 0) refuse(path, "libelf cannot read section " + name + ": " + elf_errmsg(-1));
        const uint32_t index = uint32_t(img.relocation_sections.size());
        img.relocation_sections.push_back(name);
        // The symbol table the entries index (sh_link: .dynsym), for those that name a symbol.
        Elf_Scn* symscn = sh.sh_link != 0 ? elf_getscn(e, sh.sh_link) : nullptr;
        GElf_Shdr symsh{};
        Elf_Data* syms = nullptr;
        if (symscn && gelf_getshdr(symscn, &symsh) && (symsh.sh_type == SHT_DYNSYM || symsh.sh_type == SHT_SYMTAB))
            syms = elf_getdata(symscn, nullptr);
        for (size_t i = 0; i < sh.sh_size / entsize; ++i) {  // at most file_size / 12 entries in all
            GElf_Rela r;
            if (!gelf_getrela(data, int(i), &r))
                refuse(path, "libelf cannot read relocation " + std::to_string(i) + " of " + name + ": " +
                                 elf_errmsg(-1));
            Relocation rel;
            rel.offset = r.r_offset;
            rel.addend = r.r_addend;
            rel.type = uint32_t(GELF_R_TYPE(r.r_info));
            rel.sym = uint32_t(GELF_R_SYM(r.r_info));
            rel.section = index;
            // ld 2.40's TILE back ends write the GOT entry of an undefined weak symbol, which a static PIE leaves
            // out of .dynsym, with the symbol index -1 (all ones: 32 bits in ELF64, 24 in ELF32): such a symbol
            // is 0 wherever the image is loaded.
            const uint32_t minus_one = entsize == sizeof(Elf32_Rela) ? 0xffffffu : 0xffffffffu;
            if (rel.sym == minus_one && t.loader_relocates) {
                rel.sym_name = "an undefined weak symbol (index -1)";
                rel.sym_weak = true;
            } else if (rel.sym != 0) {
                GElf_Sym sym;
                if (!syms || !gelf_getsym(syms, int(rel.sym), &sym))
                    refuse(path, "relocation " + std::to_string(i) + " of " + name + " names symbol " +
                                     std::to_string(rel.sym) + ", which its symbol table (section " +
                                     std::to_string(sh.sh_link) + ") does not have");
                const char* sname = elf_strptr(e, symsh.sh_link, sym.st_name);
                rel.sym_name = sname && *sname ? sname : "#" + std::to_string(rel.sym);
                rel.sym_value = sym.st_value;
                rel.sym_defined = sym.st_shndx != SHN_UNDEF;
                rel.sym_absolute = sym.st_shndx == SHN_ABS;
                rel.sym_weak = GELF_ST_BIND(sym.st_info) == STB_WEAK;
            }
            img.relocations.push_back(rel);
        }
    }
}

}  // namespace

void check_partitioned_image(const Target& t, Image& img) {
    // Nothing larger can ever be placed; refusing here also bounds the flat image we allocate below.
    const uint64_t mem = img.memory_size();
    if (mem > t.max_partition || img.stack_size > t.max_partition ||
        t.image_offset + mem + img.stack_size > t.max_partition)
        refuse(img.path, "image too large: it needs " + size_text(mem) + " of memory " + range(img.link_base, img.mem_end) +
                             " plus " + size_text(img.stack_size) + " of stack, but a " + t.name +
                             " partition is at most " + size_text(t.max_partition));
    const uint64_t flat = img.file_end > img.link_base ? img.file_end - img.link_base : 0;
    if (flat > kMaxFlatFactor * img.file_size + kFlatSlack)
        refuse(img.path, "its PT_LOAD segments' file bytes span " + size_text(flat) + " " +
                             range(img.link_base, img.file_end) + ", more than " + std::to_string(kMaxFlatFactor) +
                             " times the file's size (" + size_text(img.file_size) + ") plus " +
                             size_text(kFlatSlack) + ": not an image a linker makes");
    img.flat.assign(flat, 0);
    for (const Segment& s : img.segments)
        if (s.filesz) std::memcpy(img.flat.data() + (s.vaddr - img.link_base), s.data.data(), s.filesz);
}

Image load_image(const std::string& path, const Target& t) {
    if (elf_version(EV_CURRENT) == EV_NONE) throw Failure(std::string("libelf: ") + elf_errmsg(-1));
    // O_NONBLOCK: a FIFO (or a device) with no writer must not block the open; it is refused just below.
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) refuse(path, std::string("cannot open: ") + std::strerror(errno));
    FdCloser closer{fd};
    struct stat st;
    if (fstat(fd, &st) != 0) refuse(path, std::string("cannot stat: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) refuse(path, "not a regular file");
    const uint64_t file_size = uint64_t(st.st_size);

    unsigned char ident[EI_NIDENT] = {};
    const ssize_t got = pread(fd, ident, EI_NIDENT, 0);
    if (got < 0) refuse(path, std::string("cannot read: ") + std::strerror(errno));
    if (got < SELFMAG || std::memcmp(ident, ELFMAG, SELFMAG) != 0)
        refuse(path, "not an ELF file (it does not start with the bytes 7f 45 4c 46, \"\\x7fELF\")");
    if (got < EI_NIDENT) refuse(path, "truncated: " + std::to_string(got) + " bytes, shorter than an ELF header");
    const std::string needs = std::string("; target ") + t.name + " needs ";
    if (ident[EI_CLASS] != t.elf_class)
        refuse(path, "ELF class is " + class_name(ident[EI_CLASS]) + needs + class_name(t.elf_class));
    if (ident[EI_DATA] != t.elf_data)
        refuse(path, "ELF data encoding is " + data_name(ident[EI_DATA]) + needs + data_name(t.elf_data));

    const GElf_Ehdr h = read_header(fd, t.elf_class, t.elf_data, path);
    if (h.e_machine != t.elf_machine)
        refuse(path, std::string("ELF machine is ") + elf_machine_name(h.e_machine) + " (" + std::to_string(h.e_machine) +
                         ")" + needs + elf_machine_name(t.elf_machine) + " (" + std::to_string(t.elf_machine) + ")");
    check_type(h, t, path);
    if (h.e_phnum == PN_XNUM) refuse(path, "too many program headers (extended numbering is not supported)");
    check_table("program headers", h.e_phoff, h.e_phnum, h.e_phentsize, file_size, path);
    // e_shnum 0 with a table present means the count is in section header 0: at least that one must be there.
    check_table("section headers", h.e_shoff, h.e_shoff && !h.e_shnum ? 1 : h.e_shnum, h.e_shentsize, file_size, path);

    std::unique_ptr<Elf, ElfCloser> elf(elf_begin(fd, ELF_C_READ_MMAP, nullptr));
    if (!elf || elf_kind(elf.get()) != ELF_K_ELF) refuse(path, std::string("libelf cannot read it: ") + elf_errmsg(-1));
    size_t phnum = 0;
    if (elf_getphdrnum(elf.get(), &phnum) != 0) refuse(path, std::string("bad program headers: ") + elf_errmsg(-1));

    Image img;
    img.path = path;
    img.entry = h.e_entry;
    img.file_size = file_size;
    uint64_t load_bytes = 0;  // the PT_LOAD segments' file bytes, which are copied below
    bool dynamic = false;     // a PT_DYNAMIC segment: the image has dynamic relocations (or could have)
    for (size_t i = 0; i < phnum; ++i) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf.get(), int(i), &ph)) refuse(path, std::string("bad program header: ") + elf_errmsg(-1));
        if (ph.p_type == PT_INTERP)
            refuse(path, "has a PT_INTERP segment (it asks for a dynamic linker, like a hosted executable); a libshmem "
                         "image relocates itself: build it with add_shmem_executable");
        if (ph.p_type == PT_DYNAMIC) dynamic = true;
        if (ph.p_type != PT_LOAD) continue;
        const std::string seg = "PT_LOAD segment at " + hex(ph.p_vaddr);
        if (ph.p_filesz > ph.p_memsz)
            refuse(path, seg + " is malformed: file size " + hex(ph.p_filesz) + " > memory size " + hex(ph.p_memsz));
        if (ph.p_vaddr + ph.p_memsz < ph.p_vaddr) refuse(path, seg + " wraps around the address space");
        if (ph.p_offset + ph.p_filesz < ph.p_offset || ph.p_offset + ph.p_filesz > file_size)
            refuse(path, "truncated: " + seg + " needs file bytes up to " + std::to_string(ph.p_offset + ph.p_filesz) +
                             " but the file has " + std::to_string(file_size) + " bytes");
        if (img.segments.size() == kMaxLoadSegments)
            refuse(path, "more than " + std::to_string(kMaxLoadSegments) + " PT_LOAD segments: not an image a linker "
                         "makes (a libshmem image has one or two)");
        load_bytes += ph.p_filesz;  // each at most file_size (checked above): no overflow in 64 of them
        if (load_bytes > file_size)
            refuse(path, "PT_LOAD segments share file bytes: theirs add up to more than the file's " +
                             std::to_string(file_size) + " bytes (the same bytes loaded at several addresses)");
        img.segments.push_back({ph.p_vaddr, ph.p_offset, ph.p_filesz, ph.p_memsz, ph.p_flags, {}});
    }
    if (img.segments.empty()) refuse(path, "no PT_LOAD segments: nothing to load");
    std::sort(img.segments.begin(), img.segments.end(), [](auto& a, auto& b) { return a.vaddr < b.vaddr; });

    img.link_base = img.segments.front().vaddr;
    if (img.link_base != t.link_address)
        refuse(path, "lowest PT_LOAD address is " + hex(img.link_base) + "; a " + t.name + " image is linked at " +
                         hex(t.link_address) + " (build it with add_shmem_executable)");
    for (size_t i = 1; i < img.segments.size(); ++i) {
        const Segment &a = img.segments[i - 1], &b = img.segments[i];
        if (a.vaddr + a.memsz > b.vaddr)
            refuse(path, "PT_LOAD segments overlap: " + range(a.vaddr, a.vaddr + a.memsz) + " and " +
                             range(b.vaddr, b.vaddr + b.memsz));
    }
    for (const Segment& s : img.segments) {
        img.mem_end = std::max(img.mem_end, s.vaddr + s.memsz);
        if (s.filesz) img.file_end = std::max(img.file_end, s.vaddr + s.filesz);
    }
    const bool entry_ok = std::any_of(img.segments.begin(), img.segments.end(), [&](const Segment& s) {
        return (s.flags & PF_X) && img.entry >= s.vaddr && img.entry < s.vaddr + s.filesz;
    });
    if (!entry_ok) refuse(path, "entry point " + hex(img.entry) + " is not inside an executable PT_LOAD segment");
    if (img.entry != img.link_base && !t.loader_relocates)
        refuse(path, "entry point " + hex(img.entry) + " is not the first byte of the image (" + hex(img.link_base) +
                         "); the loader starts every core there");

    img.stack_size_from_symbol = find_symbol(elf.get(), "__stack_size", img.stack_size);
    if (!img.stack_size_from_symbol) img.stack_size = t.default_stack_size;
    if (img.stack_size < t.min_stack_size)
        refuse(path, "its stack (__stack_size = " + std::to_string(img.stack_size) + " bytes) is smaller than the " +
                         size_text(t.min_stack_size) + " a " + t.name + " PE needs at least; link with a larger one, " +
                         "e.g. -Wl,--defsym=__stack_size=" + std::to_string(t.default_stack_size));
    img.sections = alloc_sections(elf.get(), path);
    if (t.loader_relocates) read_relocations(elf.get(), img, t, dynamic);

    size_t raw_size = 0;
    const char* raw = elf_rawfile(elf.get(), &raw_size);
    if (!raw) refuse(path, std::string("libelf cannot read it: ") + elf_errmsg(-1));
    for (Segment& s : img.segments) s.data.assign(raw + s.offset, raw + s.offset + s.filesz);  // bounds checked above
    return img;
}

Image load_image(const std::string& path, const Target& t, void (*check)(const Target& t, Image& img)) {
    Image img = load_image(path, t);
    check(t, img);
    return img;
}

}  // namespace oshrun
