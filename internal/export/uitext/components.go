package uitext

// componentStrings are the texts the MDX components write (an
// Expandable's summary, the examples' titles, a field's link), kept apart
// from uiStrings so the table of the page frame stays readable; init
// merges them in, and the tests hold them to every language as the rest.
// "{name}" is an Expandable's title or a field's name. The field pills
// reuse the API reference's keys (apiRequired, deprecated, apiDefault).
//
//nolint:misspell // other languages' words read as English misspellings
var componentStrings = map[string][10]string{
	// expandShow, expandHide, expandProperties, requestExample, responseExample, fieldLink,
	// examples, examplesRequest, examplesResponse (the examples column of a page),
	// filterByTag (a changelog's tag filters, written by app.js)
	"en":      {"Show {name}", "Hide {name}", "properties", "Request example", "Response example", "Link to {name}", "Examples", "Request", "Response", "Filter by tag"},
	"ar":      {"إظهار {name}", "إخفاء {name}", "الخصائص", "مثال على الطلب", "مثال على الاستجابة", "رابط إلى {name}", "أمثلة", "الطلب", "الاستجابة", "تصفية حسب الوسم"},
	"ca":      {"Mostra {name}", "Amaga {name}", "propietats", "Exemple de sol·licitud", "Exemple de resposta", "Enllaç a {name}", "Exemples", "Sol·licitud", "Resposta", "Filtra per etiqueta"},
	"cn":      {"显示{name}", "隐藏{name}", "属性", "请求示例", "响应示例", "指向 {name} 的链接", "示例", "请求", "响应", "按标签筛选"},
	"zh-Hant": {"顯示{name}", "隱藏{name}", "屬性", "請求範例", "回應範例", "連結至 {name}", "範例", "請求", "回應", "依標籤篩選"},
	"cs":      {"Zobrazit {name}", "Skrýt {name}", "vlastnosti", "Příklad požadavku", "Příklad odpovědi", "Odkaz na {name}", "Příklady", "Požadavek", "Odpověď", "Filtrovat podle štítku"},
	"da":      {"Vis {name}", "Skjul {name}", "egenskaber", "Eksempel på anmodning", "Eksempel på svar", "Link til {name}", "Eksempler", "Anmodning", "Svar", "Filtrér efter tag"},
	"nl":      {"{name} tonen", "{name} verbergen", "eigenschappen", "Voorbeeldverzoek", "Voorbeeldantwoord", "Link naar {name}", "Voorbeelden", "Verzoek", "Antwoord", "Filteren op tag"},
	"fi":      {"Näytä {name}", "Piilota {name}", "ominaisuudet", "Esimerkkipyyntö", "Esimerkkivastaus", "Linkki kohteeseen {name}", "Esimerkit", "Pyyntö", "Vastaus", "Suodata tunnisteen mukaan"},
	"fr":      {"Afficher {name}", "Masquer {name}", "les propriétés", "Exemple de requête", "Exemple de réponse", "Lien vers {name}", "Exemples", "Requête", "Réponse", "Filtrer par étiquette"},
	"de":      {"{name} anzeigen", "{name} ausblenden", "Eigenschaften", "Beispielanfrage", "Beispielantwort", "Link zu {name}", "Beispiele", "Anfrage", "Antwort", "Nach Tag filtern"},
	"he":      {"הצגת {name}", "הסתרת {name}", "מאפיינים", "דוגמת בקשה", "דוגמת תגובה", "קישור אל {name}", "דוגמאות", "בקשה", "תגובה", "סינון לפי תגית"},
	"hi":      {"{name} दिखाएँ", "{name} छिपाएँ", "गुण", "अनुरोध का उदाहरण", "प्रतिक्रिया का उदाहरण", "{name} का लिंक", "उदाहरण", "अनुरोध", "प्रतिक्रिया", "टैग से फ़िल्टर करें"},
	"hu":      {"{name} megjelenítése", "{name} elrejtése", "tulajdonságok", "Példakérés", "Példaválasz", "Hivatkozás ide: {name}", "Példák", "Kérés", "Válasz", "Szűrés címke szerint"},
	"id":      {"Tampilkan {name}", "Sembunyikan {name}", "properti", "Contoh permintaan", "Contoh respons", "Tautan ke {name}", "Contoh", "Permintaan", "Respons", "Filter menurut tag"},
	"it":      {"Mostra {name}", "Nascondi {name}", "proprietà", "Esempio di richiesta", "Esempio di risposta", "Link a {name}", "Esempi", "Richiesta", "Risposta", "Filtra per tag"},
	"jp":      {"{name}を表示", "{name}を非表示", "プロパティ", "リクエスト例", "レスポンス例", "{name} へのリンク", "例", "リクエスト", "レスポンス", "タグで絞り込む"},
	"ko":      {"{name} 표시", "{name} 숨기기", "속성", "요청 예시", "응답 예시", "{name} 링크", "예시", "요청", "응답", "태그로 필터링"},
	"lv":      {"Rādīt {name}", "Slēpt {name}", "īpašības", "Pieprasījuma piemērs", "Atbildes piemērs", "Saite uz {name}", "Piemēri", "Pieprasījums", "Atbilde", "Filtrēt pēc birkas"},
	"no":      {"Vis {name}", "Skjul {name}", "egenskaper", "Eksempel på forespørsel", "Eksempel på svar", "Lenke til {name}", "Eksempler", "Forespørsel", "Svar", "Filtrer etter tagg"},
	"pl":      {"Pokaż {name}", "Ukryj {name}", "właściwości", "Przykładowe żądanie", "Przykładowa odpowiedź", "Link do {name}", "Przykłady", "Żądanie", "Odpowiedź", "Filtruj według tagu"},
	"pt-BR":   {"Mostrar {name}", "Ocultar {name}", "propriedades", "Exemplo de requisição", "Exemplo de resposta", "Link para {name}", "Exemplos", "Requisição", "Resposta", "Filtrar por tag"},
	"ro":      {"Afișează {name}", "Ascunde {name}", "proprietăți", "Exemplu de cerere", "Exemplu de răspuns", "Link către {name}", "Exemple", "Cerere", "Răspuns", "Filtrează după etichetă"},
	"ru":      {"Показать {name}", "Скрыть {name}", "свойства", "Пример запроса", "Пример ответа", "Ссылка на {name}", "Примеры", "Запрос", "Ответ", "Фильтр по тегу"},
	"es":      {"Mostrar {name}", "Ocultar {name}", "propiedades", "Ejemplo de solicitud", "Ejemplo de respuesta", "Enlace a {name}", "Ejemplos", "Solicitud", "Respuesta", "Filtrar por etiqueta"},
	"sv":      {"Visa {name}", "Dölj {name}", "egenskaper", "Exempelförfrågan", "Exempelsvar", "Länk till {name}", "Exempel", "Förfrågan", "Svar", "Filtrera efter tagg"},
	"tr":      {"{name} göster", "{name} gizle", "özellikler", "Örnek istek", "Örnek yanıt", "{name} bağlantısı", "Örnekler", "İstek", "Yanıt", "Etikete göre filtrele"},
	"uk":      {"Показати {name}", "Сховати {name}", "властивості", "Приклад запиту", "Приклад відповіді", "Посилання на {name}", "Приклади", "Запит", "Відповідь", "Фільтр за тегом"},
	"uz":      {"Koʻrsatish: {name}", "Yashirish: {name}", "xususiyatlar", "Soʻrov namunasi", "Javob namunasi", "{name} havolasi", "Namunalar", "Soʻrov", "Javob", "Teg boʻyicha saralash"},
	"vi":      {"Hiện {name}", "Ẩn {name}", "thuộc tính", "Ví dụ yêu cầu", "Ví dụ phản hồi", "Liên kết đến {name}", "Ví dụ", "Yêu cầu", "Phản hồi", "Lọc theo thẻ"},
}

// componentKeys are the keys of componentStrings' columns.
var componentKeys = [10]string{"expandShow", "expandHide", "expandProperties", "requestExample", "responseExample", "fieldLink",
	"examples", "examplesRequest", "examplesResponse", "filterByTag"}

// diagramStrings are the labels of the zoom and pan controls that
// mermaid-init.js gives a diagram, merged in like componentStrings.
var diagramStrings = map[string][7]string{
	// zoomIn, zoomOut, moveUp, moveDown, moveLeft, moveRight, resetView
	"en":      {"Zoom in", "Zoom out", "Move up", "Move down", "Move left", "Move right", "Reset view"},
	"ar":      {"تكبير", "تصغير", "تحريك لأعلى", "تحريك لأسفل", "تحريك لليسار", "تحريك لليمين", "إعادة ضبط العرض"},
	"ca":      {"Amplia", "Redueix", "Mou amunt", "Mou avall", "Mou a l'esquerra", "Mou a la dreta", "Restableix la vista"},
	"cn":      {"放大", "缩小", "上移", "下移", "左移", "右移", "重置视图"},
	"zh-Hant": {"放大", "縮小", "上移", "下移", "左移", "右移", "重設檢視"},
	"cs":      {"Přiblížit", "Oddálit", "Posunout nahoru", "Posunout dolů", "Posunout doleva", "Posunout doprava", "Obnovit zobrazení"},
	"da":      {"Zoom ind", "Zoom ud", "Flyt op", "Flyt ned", "Flyt til venstre", "Flyt til højre", "Nulstil visning"},
	"nl":      {"Inzoomen", "Uitzoomen", "Omhoog", "Omlaag", "Naar links", "Naar rechts", "Weergave herstellen"},
	"fi":      {"Lähennä", "Loitonna", "Siirrä ylös", "Siirrä alas", "Siirrä vasemmalle", "Siirrä oikealle", "Palauta näkymä"},
	"fr":      {"Zoom avant", "Zoom arrière", "Déplacer vers le haut", "Déplacer vers le bas", "Déplacer vers la gauche", "Déplacer vers la droite", "Réinitialiser la vue"},
	"de":      {"Vergrößern", "Verkleinern", "Nach oben", "Nach unten", "Nach links", "Nach rechts", "Ansicht zurücksetzen"},
	"he":      {"התקרבות", "התרחקות", "הזזה למעלה", "הזזה למטה", "הזזה שמאלה", "הזזה ימינה", "איפוס התצוגה"},
	"hi":      {"ज़ूम इन", "ज़ूम आउट", "ऊपर ले जाएँ", "नीचे ले जाएँ", "बाएँ ले जाएँ", "दाएँ ले जाएँ", "दृश्य रीसेट करें"},
	"hu":      {"Nagyítás", "Kicsinyítés", "Mozgatás fel", "Mozgatás le", "Mozgatás balra", "Mozgatás jobbra", "Nézet visszaállítása"},
	"id":      {"Perbesar", "Perkecil", "Geser ke atas", "Geser ke bawah", "Geser ke kiri", "Geser ke kanan", "Atur ulang tampilan"},
	"it":      {"Ingrandisci", "Riduci", "Sposta su", "Sposta giù", "Sposta a sinistra", "Sposta a destra", "Reimposta vista"},
	"jp":      {"拡大", "縮小", "上へ移動", "下へ移動", "左へ移動", "右へ移動", "表示をリセット"},
	"ko":      {"확대", "축소", "위로 이동", "아래로 이동", "왼쪽으로 이동", "오른쪽으로 이동", "보기 재설정"},
	"lv":      {"Tuvināt", "Tālināt", "Pārvietot augšup", "Pārvietot lejup", "Pārvietot pa kreisi", "Pārvietot pa labi", "Atiestatīt skatu"},
	"no":      {"Zoom inn", "Zoom ut", "Flytt opp", "Flytt ned", "Flytt til venstre", "Flytt til høyre", "Tilbakestill visning"},
	"pl":      {"Powiększ", "Pomniejsz", "Przesuń w górę", "Przesuń w dół", "Przesuń w lewo", "Przesuń w prawo", "Resetuj widok"},
	"pt-BR":   {"Aumentar zoom", "Diminuir zoom", "Mover para cima", "Mover para baixo", "Mover para a esquerda", "Mover para a direita", "Redefinir visualização"},
	"ro":      {"Mărește", "Micșorează", "Mută în sus", "Mută în jos", "Mută la stânga", "Mută la dreapta", "Resetează vizualizarea"},
	"ru":      {"Увеличить", "Уменьшить", "Сдвинуть вверх", "Сдвинуть вниз", "Сдвинуть влево", "Сдвинуть вправо", "Сбросить вид"},
	"es":      {"Acercar", "Alejar", "Mover arriba", "Mover abajo", "Mover a la izquierda", "Mover a la derecha", "Restablecer vista"},
	"sv":      {"Zooma in", "Zooma ut", "Flytta upp", "Flytta ned", "Flytta vänster", "Flytta höger", "Återställ vy"},
	"tr":      {"Yakınlaştır", "Uzaklaştır", "Yukarı taşı", "Aşağı taşı", "Sola taşı", "Sağa taşı", "Görünümü sıfırla"},
	"uk":      {"Збільшити", "Зменшити", "Посунути вгору", "Посунути вниз", "Посунути ліворуч", "Посунути праворуч", "Скинути вигляд"},
	"uz":      {"Kattalashtirish", "Kichraytirish", "Yuqoriga surish", "Pastga surish", "Chapga surish", "Oʻngga surish", "Koʻrinishni tiklash"},
	"vi":      {"Phóng to", "Thu nhỏ", "Di chuyển lên", "Di chuyển xuống", "Di chuyển sang trái", "Di chuyển sang phải", "Đặt lại chế độ xem"},
}

// diagramKeys are the keys of diagramStrings' columns.
var diagramKeys = [7]string{"zoomIn", "zoomOut", "moveUp", "moveDown", "moveLeft", "moveRight", "resetView"}

func init() {
	for code, texts := range componentStrings {
		mergeColumns(code, componentKeys[:], texts[:])
	}
	for code, texts := range diagramStrings {
		mergeColumns(code, diagramKeys[:], texts[:])
	}
}

// mergeColumns puts one language's row of a column table into its table
// of interface texts.
func mergeColumns(code string, keys, texts []string) {
	table := uiStrings[code]
	if table == nil {
		return // the tests report a language the frame's table lacks
	}
	for i, k := range keys {
		table[k] = texts[i]
	}
}
