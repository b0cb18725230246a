package uitext

// componentStrings are the texts the MDX components write (an
// Expandable's summary, the examples' titles, a field's link), kept apart
// from uiStrings so the table of the page frame stays readable; init
// merges them in, and the tests hold them to every language as the rest.
// "{name}" is an Expandable's title or a field's name. The field pills
// reuse the API reference's keys (apiRequired, deprecated, apiDefault).
//
//nolint:misspell // other languages' words read as English misspellings
var componentStrings = map[string][6]string{
	// expandShow, expandHide, expandProperties, requestExample, responseExample, fieldLink
	"en":      {"Show {name}", "Hide {name}", "properties", "Request example", "Response example", "Link to {name}"},
	"ar":      {"إظهار {name}", "إخفاء {name}", "الخصائص", "مثال على الطلب", "مثال على الاستجابة", "رابط إلى {name}"},
	"ca":      {"Mostra {name}", "Amaga {name}", "propietats", "Exemple de sol·licitud", "Exemple de resposta", "Enllaç a {name}"},
	"cn":      {"显示{name}", "隐藏{name}", "属性", "请求示例", "响应示例", "指向 {name} 的链接"},
	"zh-Hant": {"顯示{name}", "隱藏{name}", "屬性", "請求範例", "回應範例", "連結至 {name}"},
	"cs":      {"Zobrazit {name}", "Skrýt {name}", "vlastnosti", "Příklad požadavku", "Příklad odpovědi", "Odkaz na {name}"},
	"da":      {"Vis {name}", "Skjul {name}", "egenskaber", "Eksempel på anmodning", "Eksempel på svar", "Link til {name}"},
	"nl":      {"{name} tonen", "{name} verbergen", "eigenschappen", "Voorbeeldverzoek", "Voorbeeldantwoord", "Link naar {name}"},
	"fi":      {"Näytä {name}", "Piilota {name}", "ominaisuudet", "Esimerkkipyyntö", "Esimerkkivastaus", "Linkki kohteeseen {name}"},
	"fr":      {"Afficher {name}", "Masquer {name}", "les propriétés", "Exemple de requête", "Exemple de réponse", "Lien vers {name}"},
	"de":      {"{name} anzeigen", "{name} ausblenden", "Eigenschaften", "Beispielanfrage", "Beispielantwort", "Link zu {name}"},
	"he":      {"הצגת {name}", "הסתרת {name}", "מאפיינים", "דוגמת בקשה", "דוגמת תגובה", "קישור אל {name}"},
	"hi":      {"{name} दिखाएँ", "{name} छिपाएँ", "गुण", "अनुरोध का उदाहरण", "प्रतिक्रिया का उदाहरण", "{name} का लिंक"},
	"hu":      {"{name} megjelenítése", "{name} elrejtése", "tulajdonságok", "Példakérés", "Példaválasz", "Hivatkozás ide: {name}"},
	"id":      {"Tampilkan {name}", "Sembunyikan {name}", "properti", "Contoh permintaan", "Contoh respons", "Tautan ke {name}"},
	"it":      {"Mostra {name}", "Nascondi {name}", "proprietà", "Esempio di richiesta", "Esempio di risposta", "Link a {name}"},
	"jp":      {"{name}を表示", "{name}を非表示", "プロパティ", "リクエスト例", "レスポンス例", "{name} へのリンク"},
	"ko":      {"{name} 표시", "{name} 숨기기", "속성", "요청 예시", "응답 예시", "{name} 링크"},
	"lv":      {"Rādīt {name}", "Slēpt {name}", "īpašības", "Pieprasījuma piemērs", "Atbildes piemērs", "Saite uz {name}"},
	"no":      {"Vis {name}", "Skjul {name}", "egenskaper", "Eksempel på forespørsel", "Eksempel på svar", "Lenke til {name}"},
	"pl":      {"Pokaż {name}", "Ukryj {name}", "właściwości", "Przykładowe żądanie", "Przykładowa odpowiedź", "Link do {name}"},
	"pt-BR":   {"Mostrar {name}", "Ocultar {name}", "propriedades", "Exemplo de requisição", "Exemplo de resposta", "Link para {name}"},
	"ro":      {"Afișează {name}", "Ascunde {name}", "proprietăți", "Exemplu de cerere", "Exemplu de răspuns", "Link către {name}"},
	"ru":      {"Показать {name}", "Скрыть {name}", "свойства", "Пример запроса", "Пример ответа", "Ссылка на {name}"},
	"es":      {"Mostrar {name}", "Ocultar {name}", "propiedades", "Ejemplo de solicitud", "Ejemplo de respuesta", "Enlace a {name}"},
	"sv":      {"Visa {name}", "Dölj {name}", "egenskaper", "Exempelförfrågan", "Exempelsvar", "Länk till {name}"},
	"tr":      {"{name} göster", "{name} gizle", "özellikler", "Örnek istek", "Örnek yanıt", "{name} bağlantısı"},
	"uk":      {"Показати {name}", "Сховати {name}", "властивості", "Приклад запиту", "Приклад відповіді", "Посилання на {name}"},
	"uz":      {"Koʻrsatish: {name}", "Yashirish: {name}", "xususiyatlar", "Soʻrov namunasi", "Javob namunasi", "{name} havolasi"},
	"vi":      {"Hiện {name}", "Ẩn {name}", "thuộc tính", "Ví dụ yêu cầu", "Ví dụ phản hồi", "Liên kết đến {name}"},
}

// componentKeys are the keys of componentStrings' columns.
var componentKeys = [6]string{"expandShow", "expandHide", "expandProperties", "requestExample", "responseExample", "fieldLink"}

func init() {
	for code, texts := range componentStrings {
		table := uiStrings[code]
		if table == nil {
			continue // the tests report a language the frame's table lacks
		}
		for i, k := range componentKeys {
			table[k] = texts[i]
		}
	}
}
