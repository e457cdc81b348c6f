// Placeholder so the renderers library has a translation unit until the scene lands.
namespace cutevis {
int renderers_placeholder = 0;
}
