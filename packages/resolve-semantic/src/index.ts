export { type Embedder, EMBED_MAX_CHARS, loadEmbedder } from "./embedder.js";
export { SemanticResolver, type SemanticResolverOptions } from "./semantic-resolver.js";
