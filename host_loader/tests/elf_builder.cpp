#include "elf_builder.hpp"

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

}  // namespace

std::vector<uint8_t> TestElf::bytes() const {
    std::vector<uint8_t> out(sizeof(Elf64_Ehdr) + segments.size() * sizeof(Elf64_Phdr));
    size_t offset = align16(out.size());
    for (size_t i = 0; i < segments.size(); ++i) {
        const TestSegment& s = segments[i];
        Elf64_Phdr ph{};
        ph.p_type = s.type;
        ph.p_flags = s.flags;
        ph.p_offset = offset;
        ph.p_vaddr = ph.p_paddr = s.vaddr;
        ph.p_filesz = s.data.size();
        ph.p_memsz = s.memsz ? s.memsz : s.data.size();
        ph.p_align = 16;
        put(out, sizeof(Elf64_Ehdr) + i * sizeof(Elf64_Phdr), ph);
        out.resize(offset + s.data.size());
        std::memcpy(out.data() + offset, s.data.data(), s.data.size());
        offset = align16(out.size());
    }

    Elf64_Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = elf_class;
    eh.e_ident[EI_DATA] = encoding;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = type;
    eh.e_machine = machine;
    eh.e_version = EV_CURRENT;
    eh.e_entry = entry;
    eh.e_phoff = segments.empty() ? 0 : sizeof(Elf64_Ehdr);
    eh.e_ehsize = sizeof(Elf64_Ehdr);
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = uint16_t(segments.size());
    eh.e_shentsize = sizeof(Elf64_Shdr);

    if (section_headers) {
        // [0] null, [1] .symtab, [2] .strtab, [3] .shstrtab
        const std::string strtab = std::string("\0__stack_size\0", 14);
        const std::string shstrtab = std::string("\0.symtab\0.strtab\0.shstrtab\0", 27);
        std::vector<Elf64_Sym> syms(1);
        if (stack_size) {
            Elf64_Sym sym{};
            sym.st_name = 1;
            sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
            sym.st_shndx = SHN_ABS;
            sym.st_value = *stack_size;
            syms.push_back(sym);
        }
        Elf64_Shdr sh[4]{};
        offset = align16(out.size());
        sh[1].sh_name = 1, sh[1].sh_type = SHT_SYMTAB, sh[1].sh_offset = offset, sh[1].sh_link = 2;
        sh[1].sh_size = syms.size() * sizeof(Elf64_Sym), sh[1].sh_entsize = sizeof(Elf64_Sym), sh[1].sh_info = 1;
        sh[1].sh_addralign = 8;
        for (size_t i = 0; i < syms.size(); ++i) put(out, offset + i * sizeof(Elf64_Sym), syms[i]);
        offset = out.size();
        sh[2].sh_name = 9, sh[2].sh_type = SHT_STRTAB, sh[2].sh_offset = offset, sh[2].sh_size = strtab.size();
        sh[2].sh_addralign = 1;
        out.insert(out.end(), strtab.begin(), strtab.end());
        offset = out.size();
        sh[3].sh_name = 17, sh[3].sh_type = SHT_STRTAB, sh[3].sh_offset = offset, sh[3].sh_size = shstrtab.size();
        sh[3].sh_addralign = 1;
        out.insert(out.end(), shstrtab.begin(), shstrtab.end());
        offset = align16(out.size());
        eh.e_shoff = offset;
        eh.e_shnum = 4;
        eh.e_shstrndx = 3;
        for (int i = 0; i < 4; ++i) put(out, offset + i * sizeof(Elf64_Shdr), sh[i]);
    }
    put(out, 0, eh);
    return out;
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

std::string write_file(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes) {
    const std::string path = dir + "/" + name;
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
    return path;
}
