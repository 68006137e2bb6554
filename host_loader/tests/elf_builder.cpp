#include "elf_builder.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace {

template <class T>
void put(std::vector<uint8_t>& out, size_t offset, const T& value) {
    if (out.size() < offset + sizeof value) out.resize(offset + sizeof value);
    std::memcpy(out.data() + offset, &value, sizeof value);
}

size_t align16(size_t v) { return (v + 15) & ~size_t(15); }

struct Elf32Types {
    using Ehdr = Elf32_Ehdr;
    using Phdr = Elf32_Phdr;
    using Shdr = Elf32_Shdr;
    using Sym = Elf32_Sym;
};
struct Elf64Types {
    using Ehdr = Elf64_Ehdr;
    using Phdr = Elf64_Phdr;
    using Shdr = Elf64_Shdr;
    using Sym = Elf64_Sym;
};

template <class E>
std::vector<uint8_t> build(const TestElf& elf) {
    using Ehdr = typename E::Ehdr;
    using Phdr = typename E::Phdr;
    using Shdr = typename E::Shdr;
    using Sym = typename E::Sym;
    const auto& segments = elf.segments;
    std::vector<uint8_t> out(sizeof(Ehdr) + segments.size() * sizeof(Phdr));
    std::vector<size_t> file_offset;  // of each segment's data
    size_t offset = align16(out.size());
    for (size_t i = 0; i < segments.size(); ++i) {
        const TestSegment& s = segments[i];
        Phdr ph{};
        ph.p_type = s.type;
        ph.p_flags = s.flags;
        ph.p_offset = s.shared_offset ? *s.shared_offset : offset;
        ph.p_vaddr = ph.p_paddr = s.vaddr;
        ph.p_filesz = s.data.size();
        ph.p_memsz = s.memsz ? s.memsz : s.data.size();
        ph.p_align = 16;
        put(out, sizeof(Ehdr) + i * sizeof(Phdr), ph);
        if (s.shared_offset) {
            file_offset.push_back(*s.shared_offset);
            continue;
        }
        file_offset.push_back(offset);
        out.resize(offset + s.data.size());
        std::memcpy(out.data() + offset, s.data.data(), s.data.size());
        offset = align16(out.size());
    }

    Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = elf.elf_class;
    eh.e_ident[EI_DATA] = elf.encoding;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = elf.type;
    eh.e_machine = elf.machine;
    eh.e_version = EV_CURRENT;
    eh.e_entry = elf.entry;
    eh.e_phoff = segments.empty() ? 0 : sizeof(Ehdr);
    eh.e_ehsize = sizeof(Ehdr);
    eh.e_phentsize = sizeof(Phdr);
    eh.e_phnum = uint16_t(segments.size());
    eh.e_shentsize = sizeof(Shdr);

    if (elf.section_headers) {
        // [0] null, [1..n] the test's sections, [n + 1, n + 2] .dynsym and .dynstr if there is a dynsym, then
        // .symtab, .strtab, .shstrtab
        std::vector<TestSection> sections = elf.sections;
        const size_t dynsym_index = elf.dynsym.empty() ? 0 : sections.size() + 1;
        if (dynsym_index) {
            std::string dynstr(1, '\0');
            std::vector<uint8_t> dynsyms(sizeof(Sym));  // symbol 0: the null symbol
            for (const TestSymbol& t : elf.dynsym) {
                Sym sym{};
                sym.st_name = uint32_t(dynstr.size());
                dynstr += t.name;
                dynstr += '\0';
                sym.st_info = ELF64_ST_INFO(t.bind, t.type);  // the same bits in both classes
                sym.st_shndx = t.shndx;
                sym.st_value = decltype(sym.st_value)(t.value);
                put(dynsyms, dynsyms.size(), sym);
            }
            sections.push_back({".dynsym", 0, 0, SHT_DYNSYM, SHF_ALLOC, sizeof(Sym), dynsyms,
                                uint32_t(dynsym_index + 1)});
            sections.push_back({".dynstr", 0, 0, SHT_STRTAB, SHF_ALLOC, 0,
                                std::vector<uint8_t>(dynstr.begin(), dynstr.end())});
        }
        const size_t n = sections.size(), symtab = n + 1, strtab_index = n + 2, shstrtab_index = n + 3;
        std::string shstrtab(1, '\0');
        const auto name = [&](const std::string& s) {
            const size_t at = shstrtab.size();
            shstrtab += s;
            shstrtab += '\0';
            return uint32_t(at);
        };
        std::vector<Shdr> sh(n + 4);
        for (size_t i = 0; i < n; ++i) {
            const TestSection& s = sections[i];
            Shdr& h = sh[i + 1];
            h.sh_name = name(s.name);
            h.sh_type = s.type;
            h.sh_flags = s.flags;
            h.sh_addr = s.addr;
            h.sh_size = s.size;
            h.sh_addralign = 4;
            h.sh_entsize = s.entsize;
            if (s.link)
                h.sh_link = *s.link;
            else if (s.type == SHT_RELA || s.type == SHT_REL)
                h.sh_link = uint32_t(dynsym_index);
            if (s.type == SHT_DYNSYM) h.sh_info = 1;  // one local symbol: the null one
            if (!s.contents.empty()) {
                h.sh_offset = align16(out.size());
                h.sh_size = s.contents.size();
                out.resize(h.sh_offset);
                out.insert(out.end(), s.contents.begin(), s.contents.end());
                continue;
            }
            for (size_t k = 0; k < segments.size(); ++k) {
                const TestSegment& seg = segments[k];
                if (s.type != SHT_NOBITS && s.addr >= seg.vaddr && s.addr + s.size <= seg.vaddr + seg.data.size())
                    h.sh_offset = file_offset[k] + (s.addr - seg.vaddr);
            }
        }
        const std::string strtab = std::string("\0__stack_size\0", 14);
        std::vector<Sym> syms(1);
        if (elf.stack_size) {
            Sym sym{};
            sym.st_name = 1;
            sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);  // the same bits in both classes
            sym.st_shndx = SHN_ABS;
            sym.st_value = *elf.stack_size;
            syms.push_back(sym);
        }
        offset = align16(out.size());
        Shdr& st = sh[symtab];
        st.sh_name = name(".symtab"), st.sh_type = SHT_SYMTAB, st.sh_offset = offset, st.sh_link = strtab_index;
        st.sh_size = syms.size() * sizeof(Sym), st.sh_entsize = sizeof(Sym), st.sh_info = 1, st.sh_addralign = 8;
        for (size_t i = 0; i < syms.size(); ++i) put(out, offset + i * sizeof(Sym), syms[i]);
        offset = out.size();
        Shdr& str = sh[strtab_index];
        str.sh_name = name(".strtab"), str.sh_type = SHT_STRTAB, str.sh_offset = offset, str.sh_size = strtab.size();
        str.sh_addralign = 1;
        out.insert(out.end(), strtab.begin(), strtab.end());
        Shdr& shstr = sh[shstrtab_index];
        shstr.sh_name = name(".shstrtab"), shstr.sh_type = SHT_STRTAB, shstr.sh_addralign = 1;
        shstr.sh_offset = out.size(), shstr.sh_size = shstrtab.size();
        out.insert(out.end(), shstrtab.begin(), shstrtab.end());
        offset = align16(out.size());
        eh.e_shoff = offset;
        eh.e_shnum = uint16_t(sh.size());
        eh.e_shstrndx = uint16_t(shstrtab_index);
        for (size_t i = 0; i < sh.size(); ++i) put(out, offset + i * sizeof(Shdr), sh[i]);
    }
    put(out, 0, eh);
    return out;
}

}  // namespace

std::vector<uint8_t> TestElf::bytes() const {
    return elf_class == ELFCLASS32 ? build<Elf32Types>(*this) : build<Elf64Types>(*this);
}

TestElf valid_elf(uint64_t base) {
    TestElf e;
    e.entry = base;
    TestSegment code;
    code.vaddr = base;
    code.data = {0x6f, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00};  // j . ; nop
    code.flags = PF_R | PF_X;
    TestSegment data;
    data.vaddr = base + 0x2000;
    data.data = {1, 2, 3, 4, 5, 6, 7, 8};
    data.memsz = 0x3000;  // .bss after the data
    data.flags = PF_R | PF_W;
    e.segments = {code, data};
    e.stack_size = 0x4000;
    return e;
}

TestElf epiphany_elf() {
    TestElf e;
    e.elf_class = ELFCLASS32;
    e.type = ET_EXEC;
    e.machine = 0x1223;  // EM_ADAPTEVA_EPIPHANY
    e.entry = 0;
    TestSegment local;
    local.vaddr = 0;
    local.data.assign(0x310, 0);
    for (size_t i = 0; i < 0x28; ++i) local.data[i] = uint8_t(0xe0 + i);           // vector table
    for (size_t i = 0x100; i < 0x300; ++i) local.data[i] = uint8_t(i);             // code
    for (size_t i = 0x300; i < 0x310; ++i) local.data[i] = uint8_t(0xd0 + i - 0x300);  // data
    local.memsz = 0x1000;
    local.flags = PF_R | PF_W | PF_X;
    e.segments = {local};
    e.sections = {{".ivt", 0, 0x28, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR},
                  {".text", 0x100, 0x200, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR},
                  {".data", 0x300, 0x10, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE},
                  {".bss", 0x310, 0xcf0, SHT_NOBITS, SHF_ALLOC | SHF_WRITE},
                  {".comment", 0, 0x20, SHT_PROGBITS, 0}};
    e.stack_size = 0x400;
    return e;
}

std::vector<uint8_t> rela_bytes(unsigned char elf_class, const std::vector<TestRela>& entries) {
    std::vector<uint8_t> out;
    for (const TestRela& r : entries) {
        if (elf_class == ELFCLASS32) {
            Elf32_Rela e{};
            e.r_offset = Elf32_Addr(r.offset);
            e.r_info = ELF32_R_INFO(r.sym, r.type);
            e.r_addend = Elf32_Sword(r.addend);
            put(out, out.size(), e);
        } else {
            Elf64_Rela e{};
            e.r_offset = r.offset;
            e.r_info = ELF64_R_INFO(r.sym, r.type);
            e.r_addend = r.addend;
            put(out, out.size(), e);
        }
    }
    return out;
}

std::vector<TestRela> tile_relocations(unsigned char elf_class) {
    const bool gx = elf_class == ELFCLASS64;
    const uint32_t relative = gx ? R_TILEGX_RELATIVE : R_TILEPRO_RELATIVE;
    const uint64_t field = gx ? 8 : 4;
    return {{0x2000, relative, 0, 0x100},
            {0x2000 + field, relative, 0, 0x2010},
            {0x2000 + 2 * field, relative, 0, 0x4ff8},
            {0x2000 + 3 * field, relative, 0, 0}};
}

void set_tile_relocations(TestElf& e, const std::vector<TestRela>& entries) {
    const std::vector<uint8_t> bytes = rela_bytes(e.elf_class, entries);
    if (bytes.size() > 0x800) throw std::runtime_error("set_tile_relocations: more than 0x800 bytes of them");
    std::vector<uint8_t>& code = e.segments.at(0).data;
    std::fill(code.begin() + 0x800, code.end(), 0);
    std::copy(bytes.begin(), bytes.end(), code.begin() + 0x800);
    for (TestSection& s : e.sections)
        if (s.name == ".rela.dyn") s.size = bytes.size();
}

uint8_t tile_code_byte(unsigned char elf_class, size_t i) {
    // TILE-Gx: "{ nop ; nop }" bundles (little-endian), which oshrun's simulator executes; TILEPro: a ramp.
    return elf_class == ELFCLASS64 ? uint8_t(0x286b080051485000ull >> (8 * (i % 8))) : uint8_t(i);
}

TestElf tile_elf(unsigned char elf_class) {
    TestElf e;
    e.elf_class = elf_class;
    e.machine = elf_class == ELFCLASS64 ? EM_TILEGX : EM_TILEPRO;
    e.type = ET_DYN;
    e.entry = 0x100;
    TestSegment code;
    code.vaddr = 0;
    code.data.resize(0x1000);
    for (size_t i = 0; i < 0x800; ++i) code.data[i] = tile_code_byte(elf_class, i);
    code.flags = PF_R | PF_X;
    TestSegment data;
    data.vaddr = 0x2000;
    data.data.resize(0x100);
    for (size_t i = 0; i < data.data.size(); ++i) data.data[i] = uint8_t(0xd0 + i % 16);
    data.memsz = 0x3000;
    data.flags = PF_R | PF_W;
    e.segments = {code, data};
    const uint64_t entsize = elf_class == ELFCLASS64 ? sizeof(Elf64_Rela) : sizeof(Elf32_Rela);
    e.sections = {{".text", 0, 0x800, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR},
                  {".rela.dyn", 0x800, 0, SHT_RELA, SHF_ALLOC, entsize},
                  {".data", 0x2000, 0x100, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE},
                  {".bss", 0x2100, 0x2f00, SHT_NOBITS, SHF_ALLOC | SHF_WRITE}};
    set_tile_relocations(e, tile_relocations(elf_class));
    e.stack_size = 0x4000;
    return e;
}

std::string write_file(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes) {
    const std::string path = dir + "/" + name;
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
    return path;
}
