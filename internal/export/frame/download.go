package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// DownloadSpecLink writes the page's "Download API spec" link, if the
// site offers one, in the page's language u.
func (f *Frame) DownloadSpecLink(b *markup.Builder, prefix markup.Prefix, u uitext.Text) {
	if f.SpecDownload.Empty() {
		return
	}
	b.Markup(`<p class="page-actions"><a class="download-spec" href="`)
	b.URL(markup.Join(prefix, f.SpecDownload))
	b.Markup(`" download>`)
	b.Text(u.T("downloadSpec"))
	b.Markup(`</a></p>`)
}
