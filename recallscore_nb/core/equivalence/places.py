"""Places that qualify another place: an answer's "Atlanta, Georgia" names one city, not two
candidates. A word list the package ships: the countries, the states of the United States and
of Australia, the provinces and territories of Canada, the nations of the United Kingdom.

>>> qualifies(("north", "carolina"))
True
>>> qualifies(("paris",)), qualifies(()), qualifies(("georgia", "bulldogs"))
(False, False, False)
"""

from __future__ import annotations

from .forms import ANSWER

__all__ = ["PLACES", "qualifies"]

_COUNTRIES = (
    "Afghanistan, Albania, Algeria, Andorra, Angola, Antigua and Barbuda, Argentina, Armenia, "
    "Australia, Austria, Azerbaijan, Bahamas, Bahrain, Bangladesh, Barbados, Belarus, Belgium, "
    "Belize, Benin, Bhutan, Bolivia, Bosnia and Herzegovina, Botswana, Brazil, Brunei, "
    "Bulgaria, Burkina Faso, Burundi, Cambodia, Cameroon, Canada, Cape Verde, "
    "Central African Republic, Chad, Chile, China, Colombia, Comoros, Congo, Costa Rica, "
    "Croatia, Cuba, Cyprus, Czech Republic, Czechia, Denmark, Djibouti, Dominica, "
    "Dominican Republic, East Timor, Ecuador, Egypt, El Salvador, Equatorial Guinea, Eritrea, "
    "Estonia, Eswatini, Ethiopia, Fiji, Finland, France, Gabon, Gambia, Georgia, Germany, "
    "Ghana, Greece, Grenada, Guatemala, Guinea, Guinea-Bissau, Guyana, Haiti, Honduras, "
    "Hungary, Iceland, India, Indonesia, Iran, Iraq, Ireland, Israel, Italy, Ivory Coast, "
    "Jamaica, Japan, Jordan, Kazakhstan, Kenya, Kiribati, Kosovo, Kuwait, Kyrgyzstan, Laos, "
    "Latvia, Lebanon, Lesotho, Liberia, Libya, Liechtenstein, Lithuania, Luxembourg, "
    "Madagascar, Malawi, Malaysia, Maldives, Mali, Malta, Marshall Islands, Mauritania, "
    "Mauritius, Mexico, Micronesia, Moldova, Monaco, Mongolia, Montenegro, Morocco, "
    "Mozambique, Myanmar, Burma, Namibia, Nauru, Nepal, Netherlands, New Zealand, Nicaragua, "
    "Niger, Nigeria, North Korea, North Macedonia, Norway, Oman, Pakistan, Palau, Palestine, "
    "Panama, Papua New Guinea, Paraguay, Peru, Philippines, Poland, Portugal, Puerto Rico, "
    "Qatar, Romania, Russia, Rwanda, Saint Kitts and Nevis, Saint Lucia, Samoa, San Marino, "
    "Saudi Arabia, Senegal, Serbia, Seychelles, Sierra Leone, Singapore, Slovakia, Slovenia, "
    "Solomon Islands, Somalia, South Africa, South Korea, South Sudan, Spain, Sri Lanka, "
    "Sudan, Suriname, Sweden, Switzerland, Syria, Taiwan, Tajikistan, Tanzania, Thailand, "
    "Togo, Tonga, Trinidad and Tobago, Tunisia, Turkey, Turkmenistan, Tuvalu, Uganda, "
    "Ukraine, United Arab Emirates, United Kingdom, UK, Great Britain, Britain, "
    "United States, United States of America, USA, US, U.S., America, Uruguay, Uzbekistan, "
    "Vanuatu, Vatican City, Venezuela, Vietnam, Yemen, Zambia, Zimbabwe")
_US_STATES = (
    "Alabama, Alaska, Arizona, Arkansas, California, Colorado, Connecticut, Delaware, "
    "Florida, Hawaii, Idaho, Illinois, Indiana, Iowa, Kansas, Kentucky, Louisiana, Maine, "
    "Maryland, Massachusetts, Michigan, Minnesota, Mississippi, Missouri, Montana, Nebraska, "
    "Nevada, New Hampshire, New Jersey, New Mexico, New York, North Carolina, North Dakota, "
    "Ohio, Oklahoma, Oregon, Pennsylvania, Rhode Island, South Carolina, South Dakota, "
    "Tennessee, Texas, Utah, Vermont, Virginia, Washington, West Virginia, Wisconsin, "
    "Wyoming, District of Columbia, D.C., DC")
_OTHER_REGIONS = (
    "Ontario, Quebec, Nova Scotia, New Brunswick, Manitoba, British Columbia, "
    "Prince Edward Island, Saskatchewan, Alberta, Newfoundland, Labrador, Yukon, Nunavut, "
    "Northwest Territories, England, Scotland, Wales, Northern Ireland, New South Wales, "
    "Queensland, Victoria, Tasmania, South Australia, Western Australia, Northern Territory")

PLACES: frozenset[tuple[str, ...]] = frozenset(
    tuple(ANSWER(name.strip()).split())
    for names in (_COUNTRIES, _US_STATES, _OTHER_REGIONS) for name in names.split(","))
"""Each place of the lists above, as its ``answer`` tokens."""


def qualifies(said: tuple[str, ...]) -> bool:
    """Whether a segment's words are a place of :data:`PLACES` (it qualifies the place before
    it: "Georgia" in "Atlanta, Georgia"; not "Georgia Bulldogs")."""
    return said in PLACES
