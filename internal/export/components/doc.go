// Package components draws the platform's built-in MDX components as
// HTML: callouts, steps, tabs, code groups, cards and columns,
// accordions and expandables, frames, parameter and response fields,
// icons, badges, tooltips, updates, request and response examples, file
// trees. Each is a pair of fragments, the HTML that opens the component
// and the HTML that closes it, around children rendered by someone else,
// in the texts (Labels) of the page's language. The export's own
// interface glyphs (Icon) are drawn here too; icons a page names become
// slots of internal/export/icons.
//
// Props lists what each component's page documents, and Unrendered
// turns every attribute a component is given but does not draw (a prop a
// static page cannot honour, a value the platform does not take, an
// undocumented attribute) into a warning naming the page and line, so
// nothing a page writes is dropped silently.
//
// It writes HTML through internal/export/markup only. It knows a
// component by its name and attributes alone: nothing of MDX syntax,
// Markdown (beyond the inline marks of a Frame's caption), custom
// components or JavaScript (internal/export/mdx parses the tags, renders
// the children and passes Unrendered's warnings on, internal/export/jsx
// draws a custom component's built-ins through Render), docs.json, pages
// or links.
package components
