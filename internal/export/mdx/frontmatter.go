package mdx

import "bytes"

// SplitFrontmatter separates a leading YAML block delimited by "---" lines.
func SplitFrontmatter(b []byte) (fm, body []byte) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(b, []byte("---")) {
		return nil, b
	}
	first := bytes.IndexByte(b, '\n')
	if first < 0 || len(bytes.TrimSpace(b[3:first])) != 0 {
		return nil, b
	}
	rest := b[first+1:]
	for off := 0; off < len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if end >= 0 {
			line = rest[off : off+end]
		}
		if bytes.Equal(bytes.TrimRight(line, " \r\t"), []byte("---")) {
			if end < 0 {
				return rest[:off], nil
			}
			return rest[:off], rest[off+end+1:]
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, b
}
