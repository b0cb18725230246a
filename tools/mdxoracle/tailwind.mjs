// tailwind.mjs reads a JSON array of class names and prints the CSS that
// Tailwind CSS v3 (pinned in package.json) generates for them, as a JSON
// array of rules: {"selector", "media", "decls": [[property, value]…]}.
// It is the test oracle of internal/export/tailwind (generate_test.go
// there); preflight (Tailwind's reset) is off, and dark mode follows the
// export's theme attribute, as the export's own CSS does.
import postcss from 'postcss'
import tailwind from 'tailwindcss'

let input = ''
for await (const chunk of process.stdin) input += chunk
const classes = JSON.parse(input)
const result = await postcss([
  tailwind({
    content: [{ raw: classes.join(' '), extension: 'html' }],
    corePlugins: { preflight: false },
    darkMode: ['selector', '[data-theme="dark"]'],
  }),
]).process("@tailwind base;\n@tailwind utilities;", { from: undefined })

const rules = []
result.root.walkRules((rule) => {
  let media = ''
  for (let p = rule.parent; p && p.type !== 'root'; p = p.parent) {
    if (p.type === 'atrule' && p.name === 'media') media = p.params
  }
  const decls = []
  rule.walkDecls((d) => decls.push([d.prop, d.value]))
  rules.push({ selector: rule.selector, media, decls })
})
process.stdout.write(JSON.stringify(rules) + '\n')
