// oracle.mjs reads MDX documents and prints the tree that the reference
// compiler (@mdx-js/mdx, with remark-gfm as the platform uses it) builds
// for each, for the differential test of internal/export/mdx
// (oracle_test.go there). One JSON object a line in, one a line out:
//
//   in:  {"name": "...", "source": "..."}
//   out: {"name": "...", "tree": [...]} or {"name": "...", "error": "..."}
//
// The tree is the HTML syntax tree the compiler hands to its JavaScript
// generator, cut down to what the comparison looks at: an element is
// {"e": name, "c": [children]}, where name is the HTML tag or the JSX
// element's name as written; text is a string; a JavaScript expression
// is {"x": source}. ESM statements and comments are left out.
import { createInterface } from 'node:readline'
import { compile } from '@mdx-js/mdx'
import remarkGfm from 'remark-gfm'

// captured is set by the rehype plugin below; compile runs synchronously
// up to it for each document.
let captured = null
const capture = () => (tree) => {
  captured = tree
}

function simplify(node) {
  switch (node.type) {
    case 'root':
      return node.children.map(simplify).filter((n) => n !== null)
    case 'text':
      return node.value
    case 'element':
      return { e: node.tagName, c: node.children.map(simplify).filter((n) => n !== null) }
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      // A fragment (<>…</>) has no name: its children stand in its place.
      return { e: node.name ?? '', c: node.children.map(simplify).filter((n) => n !== null) }
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
      return { x: node.value }
    case 'raw':
      return node.value
    default:
      // mdxjsEsm, comment, doctype
      return null
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of lines) {
  if (line.trim() === '') continue
  const doc = JSON.parse(line)
  captured = null
  let out
  try {
    await compile(doc.source, {
      format: 'mdx',
      remarkPlugins: [remarkGfm],
      rehypePlugins: [capture],
    })
    out = { name: doc.name, tree: simplify(captured) }
  } catch (err) {
    out = { name: doc.name, error: String(err.message ?? err) }
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}
