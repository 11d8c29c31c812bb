export { MastraRefs, createMastraRefs, type MastraRefsOptions, type MastraToolLike } from "./refs.js";
