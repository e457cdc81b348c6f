// Placeholder so the atoms library has a translation unit until the catalogue lands.
namespace cutevis {
int atoms_placeholder = 0;
}
